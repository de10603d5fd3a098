import { describe, expect, test } from 'vitest';
import {
  causeChain,
  codeOf,
  describeError,
  describeErrorCodeLast,
  describeThrown,
  describeWithCause,
  errnoText,
  messageOf,
} from './error-text.js';
import { HarnessError } from './errors.js';

const coded = new HarnessError('UNKNOWN_TOOL', 'no tool "x"');
const revoked = (() => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
})();
const throwingMessage = Object.defineProperty(new Error('hidden'), 'message', {
  get() {
    throw new Error('getter');
  },
});

describe('error text', () => {
  test('a coded error reads "CODE: message" in a log and "message (CODE)" in a tool result', () => {
    expect(describeError(coded)).toBe('UNKNOWN_TOOL: no tool "x"');
    expect(describeErrorCodeLast(coded)).toBe('no tool "x" (UNKNOWN_TOOL)');
  });

  test('an uncoded error reads as its message, and a thrown non-error as itself', () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeErrorCodeLast(new Error('boom'))).toBe('boom');
    expect(describeError('plain')).toBe('plain');
    expect(describeError({ code: 'X' })).toBe('[object Object]');
    expect(messageOf(42)).toBe('42');
  });

  test('describeThrown names the error class for a log line', () => {
    expect(describeThrown(coded)).toBe('HarnessError: no tool "x"');
    expect(describeThrown(undefined)).toBe('undefined');
  });

  test('an unrenderable thrown value is described without throwing', () => {
    for (const value of [
      revoked,
      throwingMessage,
      {
        toString: () => {
          throw new Error('no');
        },
      },
    ]) {
      for (const describeIt of [
        describeThrown,
        describeError,
        describeErrorCodeLast,
        messageOf,
        describeWithCause,
        codeOf,
        errnoText,
      ]) {
        expect(() => describeIt(value)).not.toThrow();
      }
    }
    expect(describeThrown(revoked)).toBe('<unrenderable thrown value of type object>');
  });

  test('the cause chain lists each error once, so a cycle ends the walk', () => {
    const inner = new Error('inner');
    const outer = new Error('outer', { cause: inner });
    (inner as { cause?: unknown }).cause = outer;
    expect(causeChain(outer)).toEqual([outer, inner]);
    expect(causeChain('x')).toEqual(['x']);
  });

  test('describeWithCause adds the message of the error below, when there is one', () => {
    expect(describeWithCause(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }))).toBe(
      'fetch failed (connect ECONNREFUSED)',
    );
    expect(describeWithCause(new Error('alone', { cause: 'text' }))).toBe('alone');
    expect(describeWithCause('not an error')).toBe('not an error');
  });

  test('a file failure reads as its errno code, or as text when it has none', () => {
    expect(errnoText(Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' }))).toBe('ENOENT');
    expect(errnoText(new Error('odd'))).toBe('Error: odd');
  });
});
