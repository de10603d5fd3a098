import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { descendantProcesses } from '../cli/workers/descendant-processes.js';
import { ensureBuiltCli, runBuiltCli } from '../../test/support/built-cli.js';
import { makeScenarioProject, toolScenario } from '../../test/support/scenario-project.js';
import { removeTempDir } from '../../test/support/temp-dir.js';

/** A tool that waits until the file named by RELEASE exists: the record holds its lock until the test says so. */
const WAITS = `async () => {
  const { existsSync } = await import('node:fs');
  while (!existsSync(process.env.RELEASE)) await new Promise((resolve) => setTimeout(resolve, 50));
  return 'released';
}`;

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

let project: string;
let release: string;
let lock: string;
beforeAll(async () => {
  await ensureBuiltCli();
}, 600_000);
beforeEach(async () => {
  project = await makeScenarioProject({ slow: toolScenario('slow', WAITS) });
  release = join(project, 'release');
  lock = join(project, 'recordings', '.nestcast-staging', 'slow.lock');
});
afterEach(async () => {
  await removeTempDir(project);
});

describe('one writer per recording', () => {
  test('a second record of a recording being recorded fails fast with RECORDING_LOCKED naming the holder, and the first saves', async () => {
    const first = runBuiltCli(['record'], { cwd: project, env: { RELEASE: release } });
    await until(() => existsSync(lock));
    // The recording is written by the worker process the first record runs its scenario in.
    const workers = first.child.pid === undefined ? [] : descendantProcesses(first.child.pid);
    const holder = workers.find((worker) => / scenario-worker .*--record$/.test(worker.command));

    const second = await runBuiltCli(['record'], { cwd: project, env: { RELEASE: release } });
    await writeFile(release, '');
    const saved = await first;

    expect(second.code).toBe(1);
    expect(second.stdout).toContain(
      `RECORDING_LOCKED slow: ${join(project, 'recordings', 'slow')} is being written by process ${holder?.pid} (`,
    );
    expect(second.stdout).toMatch(/dist\/cli\.js scenario-worker --work-root \S+ --record\), since \d{4}-\d\d-\d\dT/);
    expect(saved.code).toBe(0);
    expect(existsSync(join(project, 'recordings', 'slow', 'meta.json'))).toBe(true);
    expect(existsSync(join(project, 'recordings', '.nestcast-staging'))).toBe(false);
  }, 120_000);

  test('a lock left by a process that no longer runs is taken over, and the record says so', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('close', resolve));
    await mkdir(join(lock, '..'), { recursive: true });
    const holder = { pid: dead.pid, command: 'nestcast record slow', since: '2026-01-01T00:00:00.000Z' };
    await writeFile(lock, `${JSON.stringify(holder)}\n`);
    await writeFile(release, '');

    const run = await runBuiltCli(['record'], { cwd: project, env: { RELEASE: release } });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `note removed the lock of ${join(project, 'recordings', 'slow')} left by process ${dead.pid} (nestcast record slow, since 2026-01-01T00:00:00.000Z), which no longer runs`,
    );
    expect(existsSync(join(project, 'recordings', 'slow', 'meta.json'))).toBe(true);
    expect(existsSync(lock)).toBe(false);
  }, 120_000);
});
