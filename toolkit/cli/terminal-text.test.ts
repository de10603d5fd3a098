import { describe, expect, test } from 'vitest';
import { paint } from './io.js';
import { terminalSafe } from './terminal-text.js';

describe('terminalSafe', () => {
  test('shows every control character but tab and newline as a \\u escape, with or without colours', () => {
    const name = 'a\u001b]0;title\u0007b\u001b[2J\r\u009b31m\u202ec\u0000';
    for (const colours of [false, true]) {
      expect(terminalSafe(`session ${name}\tok\n`, colours)).toBe(
        'session a\\u001b]0;title\\u0007b\\u001b[2J\\u000d\\u009b31m\\u202ec\\u0000\tok\n',
      );
    }
  });

  test("keeps nestcast's own colours when colours are on, and escapes them when off", () => {
    const p = paint(true);
    const line = `${p.green('✓')} ${p.bold('greets')} ${p.dim('1 ms')}`;
    expect(terminalSafe(line, true)).toBe(line);
    expect(terminalSafe(line, false)).not.toContain('\u001b');
  });
});
