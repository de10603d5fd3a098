import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { docSnippet } from '../../../test/support/doc-snippet.js';
import { makeTempDir, removeTempDir } from '../../../test/support/temp-dir.js';
import type { CliIo } from '../../cli/io.js';
import { main } from '../../cli/main.js';
import { childrenFromBuiltCli } from '../../../test/support/built-cli.js';

// The workers `main` starts run from the build: the file proves the commands, not the sources' loader.
childrenFromBuiltCli();

const REPO = process.cwd();
const DOC = join(REPO, 'docs', 'scenarios.md');

function silentIo(): CliIo & { out: () => string } {
  let out = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (out += text),
    env: { NO_COLOR: '1' },
    cwd: REPO,
    color: false,
    out: () => out,
  };
}

let recordings: string;
beforeEach(async () => {
  recordings = await makeTempDir('program-docs-');
});
afterEach(async () => {
  await removeTempDir(recordings);
});

describe('"Scenarios for your own agents" in docs/scenarios.md', () => {
  it('shows the program scenario of this repository, word for word but for the import', async () => {
    const shown = await docSnippet(DOC, 'scenarios/agents-sdk-parallel.scenario.ts');
    const file = await readFile(join(REPO, 'scenarios', 'agents-sdk-parallel.scenario.ts'), 'utf8');
    expect(shown.replace("from 'nestcast/toolkit'", "from '../toolkit/scenarios/define-scenario.js'")).toBe(file);
  });

  it('works as written: record keyless from the script, then run with its four derived sessions', async () => {
    const record = silentIo();
    expect(await main(['record', 'agents-sdk-parallel', '--recordings', recordings], record), record.out()).toBe(0);
    const run = silentIo();
    expect(await main(['run', 'agents-sdk-parallel', '--recordings', recordings], run), run.out()).toBe(0);
    expect(run.out()).toMatch(/^✓ agents-sdk-parallel {2}4 sessions {2}6 model calls/);
    expect(run.out()).toContain('1 scenario passed');
    // Both commands start a worker process for the scenario.
  }, 120_000);
});
