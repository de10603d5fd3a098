import { expect, test } from 'vitest';
import { subagentStopReason } from './stop-reason.js';

test.each([
  ['end_turn', 'completed'],
  ['max_tokens', 'max-tokens'],
  ['refusal', 'refusal'],
  ['cancelled', 'aborted'],
  ['max_turn_requests', 'error'],
  ['some_future_reason', 'error'],
  ['toString', 'error'],
])('the ACP stop reason %s maps to %s', (acp, expected) => {
  expect(subagentStopReason(acp)).toBe(expected);
});
