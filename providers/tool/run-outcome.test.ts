import { describe, expect, it } from 'vitest';
import { failureText } from './run-outcome.js';

describe('failureText', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'words an unknown stop reason named %j as an abnormal end, not an inherited property',
    (stopReason) => {
      expect(failureText({ output: '', stopReason }).split('\n')[0]).toBe(
        `Error: subagent run ended abnormally (${stopReason})`,
      );
    },
  );

  it('keeps the headline of a known stop reason', () => {
    expect(failureText({ output: 'half', stopReason: 'aborted' })).toBe(
      'Error: subagent run was cancelled\nPartial output before the run ended:\nhalf',
    );
  });
});
