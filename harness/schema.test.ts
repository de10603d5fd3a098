import { describe, expect, it } from 'vitest';
import { compileSchema, type JsonSchema } from './schema.js';

// Each scenario builds its tools anew: a schema arrives as a fresh object with the same content.
const textArgs = (): JsonSchema => ({
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
});

describe('compileSchema', () => {
  it('judges and explains a fresh copy of a schema exactly as the first', () => {
    const first = compileSchema(textArgs());
    const copy = compileSchema(textArgs());
    for (const value of [{ text: 'hi' }, { text: 3 }, {}, { text: 'hi', extra: true }, 'text']) {
      expect(copy(value)).toBe(first(value));
      if (!first(value)) expect(copy.describeErrors()).toBe(first.describeErrors());
    }
    expect(copy({ text: 3 })).toBe(false);
    expect(copy.describeErrors()).toBe('/text must be string');
  });

  it('gives schemas that differ in one keyword checks of their own', () => {
    const strings = compileSchema({ type: 'array', items: { type: 'string' } });
    const numbers = compileSchema({ type: 'array', items: { type: 'number' } });
    expect(strings(['a'])).toBe(true);
    expect(numbers(['a'])).toBe(false);
    expect(numbers([1])).toBe(true);
    expect(strings([1])).toBe(false);
  });

  it('still refuses a second schema object claiming an $id already compiled, as ajv does', () => {
    const withId = (): JsonSchema => ({ $id: 'https://example.test/schema-cache-id', type: 'string' });
    expect(compileSchema(withId())('a')).toBe(true);
    expect(() => compileSchema(withId())).toThrow(/already exists/);
  });
});
