import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childrenFromBuiltCli } from '../../test/support/built-cli.js';
import { docSnippet } from '../../test/support/doc-snippet.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { CliIo } from './io.js';
import { main } from './main.js';

const REPO = process.cwd();
let project: string;

childrenFromBuiltCli();

async function nestcast(...argv: string[]): Promise<{ status: number; out: string }> {
  let out = '';
  const io: CliIo = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (out += text),
    env: { NO_COLOR: '1' },
    cwd: project,
    color: false,
  };
  return { status: await main(argv, io), out };
}

/** Every `nestcast …` command a hint names, as written (the text up to the end of the sentence). */
function hintedCommands(out: string): string[] {
  return [...out.matchAll(/(?:with|accept it with): `?nestcast ([a-z-]+(?: [^\s`.]+)*?)(?:`|\.(?:\s|$)|\n|$)/g)].map(
    (match) => match[1] as string,
  );
}

async function follow(out: string): Promise<void> {
  const commands = [...new Set(hintedCommands(out))];
  expect(commands.length).toBeGreaterThan(0);
  for (const command of commands) expect((await nestcast(...command.split(' '))).status).toBe(0);
}

beforeEach(async () => {
  project = await makeTempDir('hints-');
  await mkdir(join(project, 'scenarios'));
  const scenario = await docSnippet(join(REPO, 'docs', 'scenarios.md'), 'scenarios/hello-child.scenario.ts');
  await writeFile(
    join(project, 'scenarios', 'hello-child.scenario.ts'),
    scenario.replace("'nestcast/toolkit'", JSON.stringify(join(REPO, 'toolkit', 'scenarios', 'index.ts'))),
  );
});
afterEach(async () => {
  await removeTempDir(project);
});

/** The project, moved to a new folder with the prompt edited: in-process runs share one module cache, where a real `nestcast` process would load the file afresh. */
async function editPrompt(): Promise<void> {
  const moved = await makeTempDir('hints-edited-');
  await cp(project, moved, { recursive: true });
  await removeTempDir(project);
  project = moved;
  const file = join(project, 'scenarios', 'hello-child.scenario.ts');
  await writeFile(
    file,
    (await readFile(file, 'utf8')).replace('Ask a helper to say hello.', 'Ask a helper to say hi.'),
  );
}

// Up to four commands a test, each running its scenario in a worker process started from the sources.
describe('hints that work when followed literally', { timeout: 120_000 }, () => {
  it('a prompt edit prints each failure once, the request divergence first, no sequence advice, and the named command fixes it', async () => {
    expect((await nestcast('record', 'hello-child')).status).toBe(0);
    await editPrompt();
    const run = await nestcast('run');
    expect(run.status).toBe(1);
    const codes = [...run.out.matchAll(/^ {4}([A-Z_]+) hello-child:/gm)].map((match) => match[1]);
    expect(codes[0]).toBe('REQUEST_MISMATCH');
    expect(new Set(run.out.match(/Model call \d+ of session "[^"]+"/g)).size).toBe(
      run.out.match(/Model call \d+ of session "[^"]+"/g)?.length,
    );
    expect(run.out).not.toContain('sequence');
    expect(run.out).not.toContain('--update');
    expect(hintedCommands(run.out)).toContain('record hello-child');
    await follow(run.out);
    expect((await nestcast('run')).status).toBe(0);
  });

  it('missing transcripts name the record command of that scenario, which restores them', async () => {
    expect((await nestcast('record', 'hello-child')).status).toBe(0);
    await rm(join(project, 'recordings', 'hello-child', 'transcripts'), { recursive: true });
    const run = await nestcast('run', 'hello-child');
    expect(run.out).toMatch(/TRANSCRIPTS_NOT_FOUND .*Record them with: nestcast record hello-child/);
    await follow(run.out);
    expect((await nestcast('run', 'hello-child')).status).toBe(0);
  });

  it('--update without a recording refuses with NOT_RECORDED instead of writing transcripts no request matching backs', async () => {
    const update = await nestcast('run', 'hello-child', '--update');
    expect(update.status).toBe(1);
    expect(update.out).toMatch(/NOT_RECORDED .*Record it with: nestcast record hello-child/);
    await follow(update.out);
    await editPrompt();
    expect((await nestcast('run', 'hello-child')).out).toContain('REQUEST_MISMATCH');
  });

  it('inspect of a recording folder outside recordings/ names a record command that works from here', async () => {
    expect((await nestcast('record', 'hello-child', '--recordings', 'elsewhere')).status).toBe(0);
    // Half a recording (calls without meta.json) is CASSETTE_INVALID, never served as if whole.
    await rm(join(project, 'elsewhere', 'hello-child', 'meta.json'));
    const inspect = await nestcast('inspect', 'elsewhere/hello-child');
    expect(inspect.out).toContain('CASSETTE_INVALID');
    expect(inspect.out).toContain('re-record with: nestcast record hello-child --recordings elsewhere');
    await follow(inspect.out);
    expect((await nestcast('inspect', 'elsewhere/hello-child')).status).toBe(0);
  });

  it("a recorded response the adapter cannot parse fails with the adapter's own protocol error in the output", async () => {
    expect((await nestcast('record', 'hello-child')).status).toBe(0);
    const file = join(project, 'recordings', 'hello-child', 'calls', 'main.jsonl');
    const [first, ...rest] = (await readFile(file, 'utf8')).split('\n');
    const line = JSON.parse(first as string) as { response: { events: { data: string }[] } };
    (line.response.events[0] as { data: string }).data = '{"choices": [ not json';
    await writeFile(file, [JSON.stringify(line), ...rest].join('\n'));
    const run = await nestcast('run', 'hello-child');
    expect(run.status).toBe(1);
    // The cause first: before the unconsumed calls and the transcript and expectation failures it led to.
    expect(run.out).toMatch(
      /^✗ hello-child .*\n {4}TURN_ERROR hello-child: session "main" ended a turn with [A-Z_]+: .*JSON/i,
    );
  });

  it('a recorded request with a key named constructor shows its REQUEST_MISMATCH, not a network error hiding a formatter crash', async () => {
    expect((await nestcast('record', 'hello-child')).status).toBe(0);
    const file = join(project, 'recordings', 'hello-child', 'calls', 'main.jsonl');
    const [first, ...rest] = (await readFile(file, 'utf8')).split('\n');
    const line = JSON.parse(first as string) as { request: { base: Record<string, unknown> } };
    line.request.base['constructor'] = { nested: true };
    await writeFile(file, [JSON.stringify(line), ...rest].join('\n'));
    const run = await nestcast('run', 'hello-child');
    expect(run.status).toBe(1);
    expect(run.out).toMatch(
      /^✗ hello-child .*\n {4}REQUEST_MISMATCH hello-child: Model call 1 of session "main" does not match .* at constructor:\n {6}recorded: \{"nested":true\}\n {6}live: {5}\(absent\)/,
    );
  });
});
