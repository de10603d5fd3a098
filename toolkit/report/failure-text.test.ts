import { describe, expect, it } from 'vitest';
import { messageBesideDiff } from './failure-text.js';

const MESSAGE =
  'spawn-one: Model call 2 of session "main" does not match the cassette at /tmp/r/spawn-one at messages[3].content:\n' +
  '  recorded: "Canberra"\n' +
  '  live:     "Sydney"\n' +
  'If the change is intended, re-record with: nestcast record spawn-one';

describe('a failure message beside its inline diff', () => {
  it('leaves out the path and the two values the diff shows, and keeps the advice', () => {
    expect(messageBesideDiff(MESSAGE, { path: 'messages[3].content', recorded: '"Canberra"', live: '"Sydney"' })).toBe(
      'spawn-one: Model call 2 of session "main" does not match the cassette at /tmp/r/spawn-one, at the first divergence above.\n' +
        'If the change is intended, re-record with: nestcast record spawn-one',
    );
  });

  it('keeps a value line that says something the diff does not', () => {
    const kept = messageBesideDiff(MESSAGE, { path: 'messages[2].content', recorded: '"Perth"', live: '"Sydney"' });
    expect(kept).toContain('  recorded: "Canberra"');
    expect(kept).not.toContain('  live:');
    expect(kept).toContain('at messages[3].content:');
  });

  it('knows a value cut in the diff (…) for the one the message states whole', () => {
    const long = `"${'a'.repeat(50)}"`;
    const message = `x at p:\n  recorded: ${long}\n  live:     "b"`;
    expect(messageBesideDiff(message, { path: 'p', recorded: `${long.slice(0, 20)}…`, live: '"b"' })).toBe(
      'x, at the first divergence above.',
    );
  });
});
