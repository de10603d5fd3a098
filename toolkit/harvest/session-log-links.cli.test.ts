import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { ensureBuiltCli, runBuiltCli } from '../../test/support/built-cli.js';
import { makeScenarioProject, toolScenario } from '../../test/support/scenario-project.js';
import { removeTempDir } from '../../test/support/temp-dir.js';

beforeAll(async () => {
  await ensureBuiltCli();
}, 180_000);

let project: string | undefined;
afterEach(async () => {
  if (project) await removeTempDir(project);
  project = undefined;
});

/** A tool that links $OUTSIDE into the sessions root of its own run (in its worker's folder under $TMPDIR). */
const LINKING_TOOL = `async () => {
  const { readdirSync, symlinkSync } = await import('node:fs');
  const { join } = await import('node:path');
  const tmp = process.env.TMPDIR;
  for (const worker of readdirSync(tmp).filter((name) => name.startsWith('nestcast-worker-')))
    for (const run of readdirSync(join(tmp, worker)).filter((name) => name.startsWith('nestcast-links-')))
      symlinkSync(process.env.OUTSIDE, join(tmp, worker, run, 'sessions', 'stolen.jsonl'));
  return 'linked';
}`;

test('a link scenario code puts into its sessions root is never read as a session log: record fails with SESSION_LOG_LINK naming it, and saves nothing', async () => {
  project = await makeScenarioProject({ links: toolScenario('links', LINKING_TOOL) });
  const tmp = join(project, 'tmp');
  const outside = join(project, 'outside.jsonl');
  await mkdir(tmp);
  await writeFile(outside, 'private notes\n');

  const record = await runBuiltCli(['record', 'links'], { cwd: project, env: { TMPDIR: tmp, OUTSIDE: outside } });

  expect(record.code).toBe(1);
  expect(record.stdout).toMatch(
    new RegExp(
      `SESSION_LOG_LINK links: \\S+/sessions/stolen\\.jsonl is a symbolic link \\(to ${outside.replace(/[.]/g, '\\.')}\\)`,
    ),
  );
  expect(record.stdout).toContain('NOT_SAVED links');
  expect(record.stdout).not.toContain('private notes');
  expect(existsSync(join(project, 'recordings', 'links', 'meta.json'))).toBe(false);
  expect(await readFile(outside, 'utf8')).toBe('private notes\n');
}, 120_000);
