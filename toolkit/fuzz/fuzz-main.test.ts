import { describe, expect, it } from 'vitest';
import { fuzzMain } from './fuzz-main.js';

function captured() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (text: string) => void out.push(text), stderr: (text: string) => void err.push(text) }, out, err };
}

describe('nestcast fuzz', () => {
  it('runs the suite on a named provider and reports the schedules, seed and rate', async () => {
    const { io, out } = captured();
    expect(await fuzzMain(['--provider', 'mock', '--runs', '30', '--seed', '42'], io)).toBe(0);
    expect(out.join('')).toMatch(/fuzzing provider "mock" with 30 schedule\(s\), seed 42\n/);
    expect(out.join('')).toMatch(/ok: 30 schedules kept every lifecycle promise \(seed 42, [\d.]+ s, \d+ schedules\/s\)/);
  });

  it('accepts a negative seed written --seed=S, as failures print it', async () => {
    const { io, out } = captured();
    expect(await fuzzMain(['--provider', 'mock', '--runs', '5', '--seed=-12'], io)).toBe(0);
    expect(out.join('')).toContain('(seed -12,');
  });

  it('prints its help with exit code 0', async () => {
    const { io, out } = captured();
    expect(await fuzzMain(['--help'], io)).toBe(0);
    expect(out.join('')).toContain('Usage: nestcast fuzz --provider <name>');
  });

  it.each([
    [['--runs', '5'], '--provider is required'],
    [['--provider', 'carrier-pigeon'], 'unknown provider "carrier-pigeon"; known: mock, spawn, fork, acp'],
    [['--provider', 'mock', '--runs', 'many'], '--runs must be an integer of at least 1, got "many"'],
    [['--provider', 'mock', '--path', '0:1'], '--path replays a failure only with the --seed'],
    [['--provider', 'mock', '--seed', '-12'], "To specify an option argument starting with a dash use '--seed=-XYZ'"],
    [['--provider', 'mock', 'extra'], 'unexpected argument "extra"'],
  ])('refuses %j with exit code 2, saying what is wrong, and the usage', async (argv, message) => {
    const { io, err } = captured();
    expect(await fuzzMain(argv, io)).toBe(2);
    expect(err.join('')).toContain(message);
    expect(err.join('')).toContain('Usage: nestcast fuzz');
  });
});
