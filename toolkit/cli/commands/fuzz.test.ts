import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { main } from '../main.js';

function captured() {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    stdout: (text: string) => void out.push(text),
    stderr: (text: string) => void err.push(text),
    env: process.env,
    cwd: process.cwd(),
    color: false,
  };
  return { io, out, err };
}

const fuzzMain = (argv: readonly string[], io: ReturnType<typeof captured>['io']) => main(['fuzz', ...argv], io);

describe('nestcast fuzz', () => {
  it('runs the suite on a named provider and reports the schedules, seed and rate', { timeout: 60_000 }, async () => {
    const { io, out } = captured();
    expect(await fuzzMain(['--provider', 'mock', '--runs', '300', '--seed', '42'], io)).toBe(0);
    expect(out.join('')).toMatch(/fuzzing provider "mock" with 300 schedule\(s\), seed 42\n/);
    expect(out.join('')).toMatch(
      /ok: (300|600|900|1200|1500) schedules kept every lifecycle promise \(seed 42, [\d.]+ s, \d+ schedules\/s(; [1-4] more round\(s\) of 300 to reach every path it claims)?\)/,
    );
  });

  it('accepts a negative seed written --seed=S, as failures print it', async () => {
    const { io, out } = captured();
    await fuzzMain(['--provider', 'mock', '--runs', '5', '--seed=-12'], io);
    expect(out.join('')).toContain('with 5 schedule(s), seed -12\n');
  });

  it('fails with exit code 1, naming them, when the schedules did not reach every path the provider claims', async () => {
    const { io, out, err } = captured();
    expect(await fuzzMain(['--provider', 'mock', '--runs', '2', '--seed', '7', '--coverage'], io)).toBe(1);
    expect(err.join('')).toContain('did not reach every path it claims');
    expect(err.join('')).toMatch(
      /\[paths-reached\] \d+ path\(s\) the provider claims were never reached in 10 schedule\(s\) \(2 asked for, then 4 more round\(s\) of 2 looking for them\)/,
    );
    expect(out.join('')).toMatch(/^ {2}\* ask-persona +[-\d]+$/m);
  });

  it('prints its help with exit code 0', async () => {
    const { io, out } = captured();
    expect(await fuzzMain(['--help'], io)).toBe(0);
    expect(out.join('')).toContain('Usage: nestcast fuzz --provider <name | module path>');
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

describe('nestcast fuzz --provider <module>, through the real CLI', () => {
  const cli = (args: readonly string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'toolkit/cli/bin.ts', 'fuzz', ...args], {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  it("fuzzes a user's provider factory module, as docs/fuzzing.md shows", { timeout: 60_000 }, async () => {
    const { code, stdout } = await cli([
      '--provider',
      'docs/examples/worker-provider.fuzz.mjs',
      '--runs',
      '100',
      '--coverage',
    ]);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/fuzzing provider "worker" with 100 schedule\(s\)/);
    expect(stdout).toMatch(/^abort\s+\d+/m);
    expect(stdout).toMatch(/ok: 100 schedules kept every lifecycle promise/);
  });

  it(
    'prints a rerun line for a broken provider module that, run as printed, replays the same failure',
    { timeout: 60_000 },
    async () => {
      const first = await cli(['--provider', 'toolkit/fuzz/mutants/starts-when-aborted.ts', '--runs', '1000']);
      expect(first.code).toBe(1);
      const rerun = /^rerun: nestcast fuzz (.+)$/m.exec(first.stderr)?.[1];
      expect(rerun, first.stderr).toMatch(
        /^--provider toolkit\/fuzz\/mutants\/starts-when-aborted\.ts --runs 1000 --seed=-?\d+ --path [\d:]+$/,
      );
      const again = await cli(rerun?.split(' ') ?? []);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('[aborted-start-rejects]');
      expect(again.stderr).toMatch(/broke \d+ lifecycle promise\(s\) after 1 schedule\(s\)/);
    },
  );

  it.each([
    [['--provider', './no/such/provider.mjs'], 'does not exist'],
    [['--provider', 'toolkit/fuzz/liveness.ts'], 'must export a ProviderFactory as its default export'],
  ])('refuses %j with exit code 2, saying what is wrong', async (argv, message) => {
    const { io, err } = captured();
    expect(await fuzzMain(argv, io)).toBe(2);
    expect(err.join('')).toContain(message);
  });
});
