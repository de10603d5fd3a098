import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltCli } from '../../test/support/built-cli.js';
import { startLoopbackServer } from '../../test/support/loopback-server.js';
import { copyScenario } from '../../test/support/scenario-copies.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';

interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let cli: string;
let temp: string;
let dirs: { scenariosDir: string; recordingsDir: string };

async function nestcast(...args: string[]): Promise<CliRun> {
  return nestcastWith({}, ...args);
}

async function nestcastWith(extraEnv: Record<string, string>, ...args: string[]): Promise<CliRun> {
  const env = { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', DEEPSEEK_API_KEY: 'sk-live-never-used', ...extraEnv };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, ...args], {
      env,
      cwd: temp,
      maxBuffer: 8 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Durations differ between any two runs, and with them the width of the time column. */
const withoutTimes = (text: string) => text.replace(/\d+ ms/g, 'N ms').replace(/ {2,}/g, '  ');

beforeAll(async () => {
  cli = await ensureBuiltCli();
  temp = await makeTempDir('run-workers-');
  dirs = { scenariosDir: join(temp, 'scenarios'), recordingsDir: join(temp, 'recordings') };
  await mkdir(dirs.scenariosDir, { recursive: true });
  await mkdir(dirs.recordingsDir, { recursive: true });
  for (const from of ['spawn-one', 'multi', 'fork', 'acp-child']) await copyScenario(from, from, dirs);
  // Replays against a recording whose child said Sydney: REQUEST_MISMATCH.
  await copyScenario('spawn-one', 'spawn-drifted', dirs);
  const childCalls = join(dirs.recordingsDir, 'spawn-drifted', 'calls', 'main', 'call_capital.jsonl');
  await writeFile(childCalls, (await readFile(childCalls, 'utf8')).replace('Canberra', 'Sydney'));
}, 180_000);

afterAll(async () => {
  await removeTempDir(temp);
});

describe('nestcast run --workers', () => {
  it('prints the same progress lines, summary and exit code with 2 workers as serially, a failing scenario and an ACP child included', async () => {
    const common = ['run', '--scenarios', dirs.scenariosDir, '--recordings', dirs.recordingsDir];
    const serial = await nestcast(...common, '--workers', '1');
    const parallel = await nestcast(...common, '--workers', '2');

    expect(serial.code).toBe(1);
    expect(parallel.code).toBe(1);
    expect(withoutTimes(parallel.stdout)).toBe(withoutTimes(serial.stdout));
    const marks = parallel.stdout.split('\n').filter((line) => /^[✓✗] /.test(line));
    expect(marks).toEqual([
      expect.stringMatching(/^✓ acp-child  2 sessions/),
      expect.stringMatching(/^✓ fork /),
      expect.stringMatching(/^✓ multi /),
      expect.stringMatching(/^✗ spawn-drifted /),
      expect.stringMatching(/^✓ spawn-one /),
    ]);
    expect(parallel.stdout).toContain('REQUEST_MISMATCH spawn-drifted: Model call 2 of session "main" does not match');
    expect(parallel.stdout).toContain('1 of 5 scenarios failed');
  });

  it('fails a scenario whose code calls process.exit with SCENARIO_EXIT and one that kills its worker with WORKER_EXITED, and still runs every other scenario', async () => {
    const quitter = { scenariosDir: join(temp, 'quitter'), recordingsDir: dirs.recordingsDir };
    await mkdir(quitter.scenariosDir, { recursive: true });
    await copyScenario('spawn-one', 'spawn-one', quitter);
    await copyScenario('multi', 'multi', quitter);
    await writeFile(
      join(quitter.scenariosDir, 'exits.scenario.ts'),
      (await readFile(join(dirs.scenariosDir, 'spawn-one.scenario.ts'), 'utf8'))
        .replace("name: 'spawn-one'", "name: 'exits'")
        .replace(
          'subagentTools:',
          `tools: [{ name: 'subagent_stand_in', description: 'x', parameters: { type: 'object' }, execute: () => process.exit(0) }],\n  subagentTools:`,
        )
        .replace("name: 'subagent',", "name: 'subagent_stand_in',"),
    );
    await writeFile(
      join(quitter.scenariosDir, 'killed.scenario.ts'),
      (await readFile(join(quitter.scenariosDir, 'exits.scenario.ts'), 'utf8'))
        .replace("name: 'exits'", "name: 'killed'")
        .replace('execute: () => process.exit(0)', "execute: () => process.kill(process.pid, 'SIGKILL')"),
    );

    // A temp dir of its own, so what the run leaves behind is this run's alone.
    const tmp = join(temp, 'quitter-tmp');
    await mkdir(tmp);

    const run = await nestcastWith(
      { TMPDIR: tmp },
      'run',
      '--scenarios',
      quitter.scenariosDir,
      '--recordings',
      quitter.recordingsDir,
      '--workers',
      '2',
    );

    // The killed worker could not remove its work folders; its parent removed the folder they were in.
    expect((await readdir(tmp)).filter((name) => name.startsWith('nestcast-'))).toEqual([]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^✗ exits .*\n {4}SCENARIO_EXIT exits: scenario code called process.exit\(0\)/m);
    expect(run.stdout).toMatch(
      /^✗ killed .*\n {4}WORKER_EXITED killed: the worker process running it was killed by SIGKILL before the scenario reported a verdict/m,
    );
    expect(run.stdout).toMatch(/^✓ multi /m);
    expect(run.stdout).toMatch(/^✓ spawn-one /m);
    expect(run.stdout).toContain('2 of 4 scenarios failed');
  });

  it('imports only the selected scenarios: a scenario file that throws at import is never loaded unless it is selected, and then fails alone', async () => {
    const broken = { scenariosDir: join(temp, 'broken'), recordingsDir: dirs.recordingsDir };
    await mkdir(broken.scenariosDir, { recursive: true });
    await copyScenario('spawn-one', 'spawn-one', broken);
    await copyScenario('multi', 'multi', broken);
    await writeFile(
      join(broken.scenariosDir, 'boom.scenario.ts'),
      "throw new Error('boom.scenario.ts was imported');\n",
    );
    const common = ['run', '--scenarios', broken.scenariosDir, '--recordings', broken.recordingsDir];

    const selected = await nestcast(...common, 'spawn-one', 'multi', '--workers', '2');
    const all = await nestcast(...common, '--workers', '2');

    expect(selected.code).toBe(0);
    expect(selected.stdout + selected.stderr).not.toContain('boom');
    expect(selected.stdout).toContain('2 scenarios passed');
    expect(all.code).toBe(1);
    expect(all.stdout).toMatch(
      /^✗ boom .*\n {4}SCENARIO_LOAD_FAILED boom: importing its file failed: boom.scenario.ts was imported/m,
    );
    expect(all.stdout).toContain('1 of 3 scenarios failed');
  });

  it('guards each worker as a serial run is guarded: a module calling home while it loads reaches nothing, and the run fails with NETWORK_ESCAPE either way', async () => {
    const trap = await startLoopbackServer((_request, response) => {
      response.end('{}');
    });
    try {
      const leaky = { scenariosDir: join(temp, 'leaky'), recordingsDir: dirs.recordingsDir };
      await mkdir(leaky.scenariosDir, { recursive: true });
      await copyScenario('spawn-one', 'spawn-one', leaky);
      await copyScenario('multi', 'multi', leaky, (source) =>
        source.replace(/^/, "await fetch(process.env.TRAP_URL + '/at-import').catch(() => undefined);\n"),
      );
      const common = ['run', '--scenarios', leaky.scenariosDir, '--recordings', leaky.recordingsDir];

      const serial = await nestcastWith({ TRAP_URL: trap.url }, ...common, '--workers', '1');
      const parallel = await nestcastWith({ TRAP_URL: trap.url }, ...common, '--workers', '2');

      expect(trap.requests).toEqual([]);
      for (const run of [serial, parallel]) {
        expect(run.code).toBe(1);
        expect(run.stdout).toContain('2 scenarios passed');
        expect(run.stderr).toContain('NETWORK_ESCAPE: 1 request tried to reach the network during replay');
        expect(run.stderr).toContain('/at-import');
      }
    } finally {
      await trap.close();
    }
  });

  it('fails the run when a worker dies after its last verdict, though every scenario passed', async () => {
    const late = { scenariosDir: join(temp, 'late'), recordingsDir: dirs.recordingsDir };
    await mkdir(late.scenariosDir, { recursive: true });
    await copyScenario('spawn-one', 'spawn-one', late);
    // Only a worker has an IPC channel to lose: the crash comes when the parent lets it go.
    await copyScenario('multi', 'multi', late, (source) =>
      source.replace(/^/, "process.once('disconnect', () => { throw new Error('late crash after the verdict'); });\n"),
    );

    const run = await nestcast(
      'run',
      '--scenarios',
      late.scenariosDir,
      '--recordings',
      late.recordingsDir,
      '--workers',
      '2',
    );

    expect(run.stdout).toContain('2 scenarios passed');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /WORKER_EXITED: a worker process exited with code \d+ after its last scenario's verdict/,
    );
    expect(run.stderr).toContain('late crash after the verdict');
  });

  it('refuses a worker count that is not a whole number, with the usage and exit code 2', async () => {
    const run = await nestcast('run', '--workers', '0');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--workers must be a whole number of worker processes, 1 or more, got "0"');
  });
});
