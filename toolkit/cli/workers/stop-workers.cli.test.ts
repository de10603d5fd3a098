import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuiltCli, runBuiltCli } from '../../../test/support/built-cli.js';
import {
  answeringScenario,
  BLOCKS_FOREVER,
  makeScenarioProject,
  toolScenario,
} from '../../../test/support/scenario-project.js';
import { removeTempDir } from '../../../test/support/temp-dir.js';

beforeAll(async () => {
  await ensureBuiltCli();
}, 180_000);

let project: string | undefined;
const stray: number[] = [];
afterEach(async () => {
  for (const pid of stray.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  if (project) await removeTempDir(project);
  project = undefined;
});

/** Running, not a zombie waiting for a parent that never reaps (a container's PID 1 may not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // No /proc: signal 0 said it exists.
  }
}

/** Polls `check` until it holds or `ms` pass; the promise under test is "within 2 s". */
async function within(ms: number, check: () => Promise<boolean> | boolean): Promise<boolean> {
  for (const end = performance.now() + ms; performance.now() < end; await sleep(50)) if (await check()) return true;
  return check();
}

/**
 * A tool that starts `sleep 100` twice (attached, and detached in a session of its own), writes
 * `<worker pid> <sleep pids…>` to a file in $MARKS, then never gives control back.
 */
const BLOCKED_TOOL = `async () => {
    const { spawn } = await import('node:child_process');
    const { writeFileSync } = await import('node:fs');
    const pids = [spawn('sleep', ['100'], { stdio: 'ignore' }).pid];
    pids.push(spawn('sleep', ['100'], { detached: true, stdio: 'ignore' }).pid);
    writeFileSync(process.env.MARKS + '/' + process.pid, [process.pid, ...pids].join(' '));
    ${BLOCKS_FOREVER}
  }`;

describe('nothing scenario code starts outlives the run', () => {
  test('processes a tool leaves running, attached, detached or holding stdout, are killed when its scenario ends and fail it with PROCESS_LEFT_RUNNING naming each; run | cat does not wait for them', async () => {
    project = await makeScenarioProject({
      leaves: toolScenario(
        'leaves',
        `async () => {
          const { spawn } = await import('node:child_process');
          spawn('sleep', ['100'], { stdio: 'inherit' });
          spawn('sleep', ['100'], { detached: true, stdio: 'ignore' }).unref();
          return 'started';
        }`,
      ),
      'z-fine': answeringScenario('z-fine', 'hello'),
    });
    expect((await runBuiltCli(['record', 'z-fine'], { cwd: project })).code).toBe(0);

    // stdout is a pipe, as with `| cat`: the run ends only when nothing holds it open any more.
    const run = await runBuiltCli(['run', '--workers', '1'], { cwd: project });

    const pids = [...run.stdout.matchAll(/pid (\d+) \(sleep 100\)/g)].map((match) => Number(match[1]));
    stray.push(...pids);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /PROCESS_LEFT_RUNNING leaves: scenario code left 2 processes running after the scenario ended, now killed: pid \d+ \(sleep 100\), pid \d+ \(sleep 100\)/,
    );
    expect(run.stdout).toMatch(/✓ z-fine/);
    expect(pids).toHaveLength(2);
    expect(pids.filter(alive)).toEqual([]);
  }, 120_000);

  test('esbuild starting as tsx transforms a module first imported mid-run is the worker’s own loader: not PROCESS_LEFT_RUNNING', async () => {
    // The tool imports a TypeScript module it has just written, new each run: tsx has no cached
    // transform for it, so the worker (whose scenario file came from tsx's cache) starts esbuild then.
    project = await makeScenarioProject({
      'imports-late': toolScenario(
        'imports-late',
        `async () => {
          const { writeFileSync } = await import('node:fs');
          const url = new URL('./late-' + Date.now() + '-' + Math.random().toString(36).slice(2) + '.ts', import.meta.url);
          writeFileSync(url, 'export const late: string = ' + JSON.stringify(Math.random().toString(36)) + ';\\n');
          const module = await import(url.href);
          return typeof module.late;
        }`,
      ),
    });
    expect((await runBuiltCli(['record', 'imports-late'], { cwd: project })).code).toBe(0);
    const run = await runBuiltCli(['run', '--workers', '1'], { cwd: project });
    expect(run.stdout).not.toMatch(/PROCESS_LEFT_RUNNING/);
    expect(run.stdout).toMatch(/✓ imports-late/);
    expect(run.code).toBe(0);
  }, 120_000);

  test('a process started through a child that exits at once (a double fork: nobody’s child any more, in a session of its own) is found by the tag it inherited, killed when its scenario ends, and fails it with PROCESS_LEFT_RUNNING', async () => {
    project = await makeScenarioProject({
      'double-forks': toolScenario(
        'double-forks',
        `async () => {
          const { execFileSync } = await import('node:child_process');
          const start = "const c = require('node:child_process').spawn('sleep', ['100'], { detached: true, stdio: 'ignore' }); c.unref(); console.log(c.pid);";
          return execFileSync(process.execPath, ['-e', start], { encoding: 'utf8' }).trim();
        }`,
      ),
    });

    const run = await runBuiltCli(['run', '--workers', '1'], { cwd: project });

    const pids = [...run.stdout.matchAll(/pid (\d+) \(sleep 100\)/g)].map((match) => Number(match[1]));
    stray.push(...pids);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /PROCESS_LEFT_RUNNING double-forks: scenario code left a process running after the scenario ended, now killed: pid \d+ \(sleep 100\)/,
    );
    expect(pids).toHaveLength(1);
    expect(await within(2_000, () => pids.every((pid) => !alive(pid)))).toBe(true);
  }, 120_000);

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGKILL'] as const) {
    test(`${signal} to the parent alone leaves no worker, no process a scenario started and no work folder after 2 s, while no worker's scenario code ever gives control back`, async () => {
      project = await makeScenarioProject({
        'a-blocked': toolScenario('a-blocked', BLOCKED_TOOL, 'timeout: 600,'),
        'b-blocked': toolScenario('b-blocked', BLOCKED_TOOL, 'timeout: 600,'),
      });
      const marks = join(project, 'marks');
      const tmp = join(project, 'tmp');
      await mkdir(marks);
      await mkdir(tmp);
      const run = runBuiltCli(['run', '--workers', '2'], { cwd: project, env: { MARKS: marks, TMPDIR: tmp } });
      const blocked = async () => (await readdir(marks)).length === 2;
      expect(await within(60_000, blocked)).toBe(true);
      const pids = (await Promise.all((await readdir(marks)).map((file) => readFile(join(marks, file), 'utf8'))))
        .flatMap((text) => text.split(' '))
        .map(Number);
      stray.push(...pids);
      expect(pids.filter(alive)).toEqual(pids);

      run.child.kill(signal);
      const ended = await run;

      expect(ended.code ?? ended.signal).toBe(
        { SIGINT: 130, SIGTERM: 143, SIGHUP: 129, SIGKILL: 'SIGKILL' as const }[signal],
      );
      const nothingLeft = async () =>
        pids.every((pid) => !alive(pid)) && (await readdir(tmp)).every((name) => !name.startsWith('nestcast-'));
      expect(await within(2_000, nothingLeft)).toBe(true);
    }, 120_000);
  }
});
