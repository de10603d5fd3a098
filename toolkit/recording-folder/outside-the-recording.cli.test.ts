import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ensureBuiltCli, runBuiltCli } from '../../test/support/built-cli.js';
import { answeringScenario, makeScenarioProject } from '../../test/support/scenario-project.js';
import { listFiles, makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';

/** Every file under `dir` with its bytes. */
async function contents(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of await listFiles(dir)) out[file] = await readFile(join(dir, file), 'utf8');
  return out;
}

let project: string;
let scratch: string;
let recording: string;
beforeAll(async () => {
  await ensureBuiltCli();
}, 600_000);
beforeEach(async () => {
  project = await makeScenarioProject({ greets: answeringScenario('greets', 'Hello!') });
  recording = join(project, 'recordings', 'greets');
  // Unrelated files a link could lead to: what a stale-file sweep through the link would delete.
  scratch = await makeTempDir('scratch-');
  await mkdir(join(scratch, 'deeper'), { recursive: true });
  await writeFile(join(scratch, 'notes.jsonl'), '{"mine":1}\n');
  await writeFile(join(scratch, 'deeper', 'more.jsonl'), '{"mine":2}\n');
  await writeFile(join(scratch, 'sessions.json'), '{"mine":3}\n');
  expect((await runBuiltCli(['record'], { cwd: project })).code).toBe(0);
}, 60_000);
afterEach(async () => {
  await removeTempDir(project);
  await removeTempDir(scratch);
});

describe('nestcast never writes or deletes through a link in a recording', () => {
  test.each([
    ['transcripts', ['record']],
    ['transcripts', ['run', '--update']],
    ['calls', ['record']],
    ['calls', ['run', '--update']],
  ])(
    'with %s/ a link to a folder of unrelated .jsonl files, `%s` fails with RECORDING_LINK naming the link and leaves those files and the recording as they were',
    async (folder, command) => {
      // The real folder's files go along, so the link looks like a working recording.
      await rename(join(recording, folder), join(scratch, 'kept'));
      await symlink(scratch, join(recording, folder), 'dir');
      const before = await contents(scratch);
      const meta = await readFile(join(recording, 'meta.json'), 'utf8');

      const run = await runBuiltCli(command, { cwd: project, env: { ANSWER: 'changed' } });

      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toContain('RECORDING_LINK');
      expect(run.stdout + run.stderr).toContain(`${join(recording, folder)} is a symbolic link (to ${scratch})`);
      expect(await contents(scratch)).toEqual(before);
      expect(readlinkSync(join(recording, folder))).toBe(scratch);
      expect(await readFile(join(recording, 'meta.json'), 'utf8')).toBe(meta);
      expect(existsSync(join(project, 'recordings', '.nestcast-staging'))).toBe(false);
    },
    60_000,
  );

  test('a recording folder that is itself a link is refused with RECORDING_LINK: the folder it points to and the link stay as they were', async () => {
    const elsewhere = join(scratch, 'greets');
    await rename(recording, elsewhere);
    await symlink(elsewhere, recording, 'dir');
    const before = await contents(scratch);

    const run = await runBuiltCli(['record'], { cwd: project });

    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain(
      `RECORDING_LINK greets: ${recording} is a symbolic link (to ${elsewhere})`,
    );
    expect(lstatSync(recording).isSymbolicLink()).toBe(true);
    expect(await contents(scratch)).toEqual(before);
  }, 60_000);

  test('a staging folder that is a link is refused before anything is built in it', async () => {
    await symlink(scratch, join(project, 'recordings', '.nestcast-staging'), 'dir');
    const before = await contents(scratch);

    const run = await runBuiltCli(['run', '--update'], { cwd: project });

    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain('RECORDING_LINK');
    expect(await contents(scratch)).toEqual(before);
    await rm(join(project, 'recordings', '.nestcast-staging'));
  }, 60_000);
});

describe('a scenario name is one folder name', () => {
  test.each([
    ['..', '...scenario.ts'],
    ['.', '..scenario.ts'],
    ['a\u001b[2Jb', 'a\u001b[2Jb.scenario.ts'],
  ])(
    'a scenario named %j is refused with SCENARIO_INVALID by record and run before anything is written',
    async (name, file) => {
      await writeFile(join(project, 'scenarios', file), answeringScenario(name, 'Hello!'));
      await writeFile(join(project, 'meta.json'), '{"the project":"own"}\n');
      const before = await contents(project);

      for (const command of [['record'], ['run', '--update'], ['run']]) {
        const run = await runBuiltCli(command, { cwd: project });
        expect(run.code, `${command.join(' ')}`).toBe(1);
        expect(run.stderr).toContain('SCENARIO_INVALID');
        expect(run.stderr).toContain(`names a scenario ${JSON.stringify(name)}`);
        expect(run.stderr).not.toContain('\u001b');
      }
      expect(await contents(project)).toEqual(before);
    },
    60_000,
  );
});
