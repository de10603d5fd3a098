import { describe, expect, test } from 'vitest';
import { misspeltOption, optionKeys, unknownOption } from './option-keys.js';

interface Sample {
  readonly mode?: string;
  readonly timeout?: number;
}
const KNOWN = optionKeys<Sample>({ mode: true, timeout: true });

describe('unknownOption', () => {
  test('passes known keys and no options at all', () => {
    expect(unknownOption({ mode: 'all', timeout: 1 }, KNOWN)).toBeUndefined();
    expect(unknownOption({}, KNOWN)).toBeUndefined();
    expect(unknownOption(undefined, KNOWN)).toBeUndefined();
  });

  test('names the first unknown key, the known one it was closest to, and every option', () => {
    expect(unknownOption({ mdoe: 'all' }, KNOWN)).toBe(
      'unknown option "mdoe" (did you mean "mode"?); the options are mode, timeout',
    );
    expect(unknownOption({ colour: true }, KNOWN)).toBe('unknown option "colour"; the options are mode, timeout');
    expect(unknownOption({ mdoe: 'all' }, KNOWN, 'replay.')).toBe(
      'unknown option "replay.mdoe" (did you mean "replay.mode"?); the options of replay are mode, timeout',
    );
  });

  test('looks inside the objects at nested keys, after the keys around them', () => {
    const nested = { replay: KNOWN };
    expect(unknownOption({ replay: { mode: 'all' } }, [...KNOWN, 'replay'], '', nested)).toBeUndefined();
    expect(unknownOption({ replay: { tiemout: 1 } }, [...KNOWN, 'replay'], '', nested)).toBe(
      'unknown option "replay.tiemout" (did you mean "replay.timeout"?); the options of replay are mode, timeout',
    );
    expect(unknownOption({ mdoe: 1, replay: { tiemout: 1 } }, [...KNOWN, 'replay'], '', nested)).toMatch(
      /^unknown option "mdoe"/,
    );
    // Not an object there: the option's own check says what is wrong with it.
    expect(unknownOption({ replay: ['x'] }, [...KNOWN, 'replay'], '', nested)).toBeUndefined();
  });
});

describe('misspeltOption', () => {
  test("names a key close to a known one, and lets keys of the object's own be", () => {
    expect(misspeltOption({ mode: 'all', pool: [], connections: 3 }, KNOWN)).toBeUndefined();
    expect(misspeltOption({ pool: [], timout: 1 }, KNOWN)).toBe('unknown key "timout" (did you mean "timeout"?)');
  });
});
