import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { main } from '../cli/main.js';
import type { CliIo } from '../cli/io.js';
import { childrenFromBuiltCli } from '../../test/support/built-cli.js';

// The workers `main` starts run from the build: the file proves the commands, not the sources' loader.
childrenFromBuiltCli();

const REPO = process.cwd();

function silentIo(): CliIo & { out: () => string } {
  let out = '';
  return {
    stdout: (text) => void (out += text),
    stderr: () => undefined,
    env: { NO_COLOR: '1' },
    cwd: REPO,
    color: false,
    out: () => out,
  };
}

let recordings: string;
beforeEach(async () => {
  recordings = await makeTempDir('quickstart-');
});
afterEach(async () => {
  await removeTempDir(recordings);
});

describe('the quickstart of docs/scenarios.md', () => {
  it('shows the scenario file of this repository, word for word but for the import', async () => {
    const doc = await readFile(join(REPO, 'docs', 'scenarios.md'), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(doc)?.[1];
    const file = await readFile(join(REPO, 'scenarios', 'hello-child.scenario.ts'), 'utf8');
    expect(block?.replace("from 'nestcast/toolkit'", "from '../toolkit/scenarios/types.js'")).toBe(file);
  });

  it('works as written: record keyless, then run', async () => {
    const record = silentIo();
    expect(await main(['record', 'hello-child', '--recordings', recordings], record)).toBe(0);
    const run = silentIo();
    expect(await main(['run', 'hello-child', '--recordings', recordings], run)).toBe(0);
    expect(run.out()).toMatch(/^✓ hello-child {2}2 sessions {2}3 model calls/);
    expect(run.out()).toContain('1 scenario passed');
    const doc = await readFile(join(REPO, 'docs', 'scenarios.md'), 'utf8');
    const shown = /npx nestcast run hello-child[^\n]*\n```\n\n(?:<!--.*-->\n\n)?```\n([\s\S]*?)```/.exec(doc)?.[1];
    // The doc shows the output of the run above, durations (and the width of their column) aside.
    const durations = (text: string) => text.replace(/ +\d+ ms$/gm, ' <ms>').replace(/ +time$/gm, ' time');
    expect(durations(run.out())).toBe(durations(shown ?? 'no output block after the run command'));
  });
});
