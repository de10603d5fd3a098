import { mkdir, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ensureBuiltCli, runBuiltCli } from '../../test/support/built-cli.js';
import { answeringScenario, makeScenarioProject } from '../../test/support/scenario-project.js';
import { removeTempDir } from '../../test/support/temp-dir.js';

let project: string;
let recording: string;
beforeAll(async () => {
  await ensureBuiltCli();
  project = await makeScenarioProject({ greets: answeringScenario('greets', 'Hello!') });
  recording = join(project, 'recordings', 'greets');
}, 600_000);
beforeEach(async () => {
  await rm(join(project, 'recordings'), { recursive: true, force: true });
  expect((await runBuiltCli(['record'], { cwd: project })).code).toBe(0);
}, 60_000);
afterAll(async () => {
  await removeTempDir(project);
});

describe('a file system failure names the file and says what to do', () => {
  test('meta.json that is a folder: RECORDING_UNREADABLE, a folder where a file belongs', async () => {
    await rm(join(recording, 'meta.json'));
    await mkdir(join(recording, 'meta.json'));
    const run = await runBuiltCli(['run'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `RECORDING_UNREADABLE greets: Could not read ${join(recording, 'meta.json')}: it is a folder where a file belongs`,
    );
  }, 60_000);

  test('calls/ that is a file: RECORDING_UNREADABLE, a file where a folder belongs', async () => {
    await rm(join(recording, 'calls'), { recursive: true });
    await writeFile(join(recording, 'calls'), 'not a folder\n');
    const run = await runBuiltCli(['run'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `Could not read ${join(recording, 'calls', 'main.jsonl')}: a part of its path is a file`,
    );
  }, 60_000);

  test('a calls file too large to be a string (ERR_STRING_TOO_LONG): RECORDING_UNREADABLE naming it', async () => {
    const calls = join(recording, 'calls', 'main.jsonl');
    await truncate(calls, 2 ** 29 + 1024);
    const run = await runBuiltCli(['run'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `RECORDING_UNREADABLE greets: Could not read ${calls}: it is too large to read as text`,
    );
    await rm(calls);
  }, 120_000);

  test('a recordings folder that is a loop of links (ELOOP): RECORDING_UNREADABLE naming the path', async () => {
    await symlink(join(project, 'loop'), join(project, 'loop'));
    const run = await runBuiltCli(['run', '--recordings', 'loop'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `Could not read ${join(project, 'loop', 'greets')}: it leads through a loop of symbolic links`,
    );
    await rm(join(project, 'loop'));
  }, 60_000);

  test('a recordings folder whose name is too long for the file system (ENAMETOOLONG): RECORDING_UNWRITABLE naming it', async () => {
    const long = 'r'.repeat(300);
    const run = await runBuiltCli(['record', '--recordings', long], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`RECORDING_UNWRITABLE greets: Could not write ${join(project, long)}`);
    expect(run.stdout).toContain('the path is too long for the file system');
  }, 60_000);
});
