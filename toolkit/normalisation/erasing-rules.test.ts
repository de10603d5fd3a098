import { describe, expect, test } from 'vitest';
import { checkRules } from './check-rules.js';
import type { NormalisationRule } from './types.js';

const check = (rules: readonly NormalisationRule[]) => () => checkRules(rules, 'meta.json');

describe('a normalisation rule may not erase what requests are compared on', () => {
  test.each<NormalisationRule>([
    { replace: '[\\s\\S]*', with: '' },
    { replace: '.*', with: '' },
    { replace: '^[\\s\\S]*$', with: '<any>' },
    { replace: 'x?', with: '' },
  ])('%j matches the empty string: NORMALISATION_INVALID', (rule) => {
    expect(check([rule])).toThrow(expect.objectContaining({ code: 'NORMALISATION_INVALID' }));
    expect(check([rule])).toThrow(/matches the empty string/);
  });

  test.each<NormalisationRule>([
    { replace: '[\\s\\S]+', with: '' },
    { replace: '.+', with: 'same', flags: 's' },
    { replace: '[^"]+', with: '' },
    { replace: '\\w+', with: '' },
    { drop: 'messages' },
    { drop: 'messages[*].content' },
    { drop: '*' },
    { drop: 'input' },
    { drop: 'contents[*].parts' },
  ])('%j makes requests that differ in what the user said equal: NORMALISATION_INVALID', (rule) => {
    expect(check([rule])).toThrow(/makes requests that differ only in what the user said equal/);
  });

  test('rules that erase only together are refused at the rule that completes it', () => {
    const rules: NormalisationRule[] = [
      { replace: '[A-Za-y]', with: 'z' },
      { replace: 'z+', with: 'z' },
    ];
    expect(check(rules.slice(0, 1))).not.toThrow();
    expect(check(rules.slice(1))).not.toThrow();
    expect(check(rules)).toThrow(/rule 2 \(after the rules before it\)/);
  });

  test.each<NormalisationRule>([
    { replace: 'thread-[0-9a-f]+', with: 'thread-<id>' },
    { replace: 'run-[0-9]+', with: 'run-<n>' },
    { replace: '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z', with: '<now>' },
    { replace: 'at \\d\\d:\\d\\d', with: 'at <time>' },
    { replace: '\\s+', with: ' ' },
    { drop: 'metadata.thread_id' },
    { drop: 'messages[*].content[*].id' },
    { drop: 'user' },
    { drop: 'tools[0].*' },
  ])('%j, a rule for generated values, is accepted', (rule) => {
    expect(check([rule])()).toEqual([rule]);
  });
});
