import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuiltCli, runBuiltCli } from '../../test/support/built-cli.js';
import { answeringScenario, makeScenarioProject } from '../../test/support/scenario-project.js';
import { removeTempDir } from '../../test/support/temp-dir.js';

const ESCAPES = '\u001b]0;owned\u0007\u001b[2J\u009b31m\u202e';

let project: string;
let meta: string;
let original: Record<string, unknown>;
beforeAll(async () => {
  await ensureBuiltCli();
  project = await makeScenarioProject({
    greets: answeringScenario('greets', 'Hello!'),
    // A session name with escape sequences that `run` prints: an expectation naming it.
    expects: answeringScenario('expects', 'Hi!', `expect: { turnEnd: { 'main/${ESCAPES}': 'end_turn' } },`),
  });
  expect((await runBuiltCli(['record', 'greets'], { cwd: project })).code).toBe(0);
  meta = join(project, 'recordings', 'greets', 'meta.json');
  original = JSON.parse(await readFile(meta, 'utf8')) as Record<string, unknown>;
}, 600_000);
afterAll(async () => {
  await removeTempDir(project);
});

async function runWithMeta(changes: Record<string, unknown>, command = ['run', 'greets']) {
  await writeFile(meta, JSON.stringify({ ...original, ...changes }));
  return runBuiltCli(command, { cwd: project });
}

describe('a hostile meta.json is refused, never obeyed', () => {
  test.each([
    [{ replace: '[\\s\\S]*', with: '' }, 'matches the empty string'],
    [{ replace: '.+', with: '', flags: 's' }, 'makes requests that differ only in what the user said equal'],
    [{ drop: 'messages' }, 'makes requests that differ only in what the user said equal'],
    [{ replace: '(a+)+$', with: 'x' }, '"(a+)+" repeats a group that itself repeats'],
  ])(
    'a rule %j that would make every request match, or backtrack exponentially, is CASSETTE_INVALID naming meta.json',
    async (rule, why) => {
      const run = await runWithMeta({ normalise: [rule] });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`CASSETTE_INVALID greets: Invalid cassette: ${meta}: normalise:`);
      expect(run.stdout).toContain(why);
    },
    60_000,
  );

  test.each(['__proto__', 'constructor', 'main/..', 'main/.'])(
    'a lineage %j outside the session name grammar is CASSETTE_INVALID, its calls never silently dropped',
    async (lineage) => {
      const calls = join(project, 'recordings', 'greets', 'calls');
      const run = await runWithMeta({ lineages: ['main', lineage] });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`${meta}: lineages[1] ${JSON.stringify(lineage)} is not a session name`);
      expect(await readFile(join(calls, 'main.jsonl'), 'utf8')).not.toBe('');
    },
    60_000,
  );
});

describe('names from recordings and scenarios reach the terminal escaped', () => {
  test('inspect shows a model name and a session name holding escape sequences as \\u escapes', async () => {
    await runWithMeta({ provenance: { ...(original['provenance'] as object), model: `gpt${ESCAPES}` } });
    const shown = await runBuiltCli(['inspect', 'greets'], { cwd: project });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('gpt\\u001b]0;owned\\u0007\\u001b[2J\\u009b31m\\u202e');

    const lineage = `main/${ESCAPES}`;
    const calls = join(project, 'recordings', 'greets', 'calls');
    await rename(join(calls, 'main.jsonl'), join(calls, 'kept.jsonl'));
    const refused = await runWithMeta({ lineages: [lineage] }, ['inspect', 'greets']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not a session name');
    for (const output of [shown.stdout, shown.stderr, refused.stdout, refused.stderr])
      expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    await rename(join(calls, 'kept.jsonl'), join(calls, 'main.jsonl'));
  }, 60_000);

  test('run prints a session name with escape sequences from a scenario as \\u escapes', async () => {
    const run = await runBuiltCli(['run', 'expects', '--update'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('main/\\u001b]0;owned\\u0007\\u001b[2J\\u009b31m\\u202e');
    expect(run.stdout + run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  }, 60_000);
});
