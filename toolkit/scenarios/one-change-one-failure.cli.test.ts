import { spawn } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyScenario } from '../../test/support/scenario-copies.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { CliIo } from '../cli/io.js';
import { main } from '../cli/main.js';
import { childrenFromBuiltCli } from '../../test/support/built-cli.js';

// The workers `main` starts run from the build: the file proves the commands, not the sources' loader.
childrenFromBuiltCli();

// One edited prompt in a repository scenario: the run's first divergence is the one headline;
// the transcript and expectations it breaks are listed under it, once, wherever the run is shown.
let project: string;
let dirs: { scenariosDir: string; recordingsDir: string };
const EDITED = 'Plan a weekend in Porto. Delegate the planning.';

beforeAll(async () => {
  project = await makeTempDir('one-change-');
  dirs = { scenariosDir: join(project, 'scenarios'), recordingsDir: join(project, 'recordings') };
  await mkdir(dirs.scenariosDir, { recursive: true });
  await mkdir(dirs.recordingsDir, { recursive: true });
  await copyScenario('nested', 'nested', dirs, (source) =>
    source.replace('Plan a weekend in Lisbon. Delegate the planning.', EDITED),
  );
});
afterAll(async () => {
  await removeTempDir(project);
});

async function nestcast(...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const io: CliIo = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (out += text),
    env: { NO_COLOR: '1' },
    cwd: project,
    color: false,
  };
  const code = await main(['run', 'nested', '--workers', '1', ...args], io);
  return { code, out };
}

/** How often `text` occurs in `within`. */
function occurrences(within: string, text: string): number {
  return within.split(text).length - 1;
}

describe('one edited prompt gives one headline failure', () => {
  it('nestcast run prints REQUEST_MISMATCH once as the headline and lists what it broke under it, by first line', async () => {
    const { code, out } = await nestcast();
    expect(code).toBe(1);
    const failures = out.slice(out.indexOf('✗ nested'), out.indexOf('scenario  '));
    expect(failures.match(/^ {4}[A-Z_]+ /gm)).toEqual(['    REQUEST_MISMATCH ']);
    expect(failures).toMatch(/and, because of it, \d+ more failures?:/);
    expect(failures).toMatch(/^ {6}- TRANSCRIPT_MISMATCH nested: /m);
    expect(failures).toMatch(/^ {6}- EXPECTATION_FAILED nested: /m);
    expect(occurrences(failures, JSON.stringify(EDITED))).toBe(1);
    expect(failures).not.toMatch(/model name|base URL/);
  });

  it('the JSON and JUnit reports hold one failure, its consequences under it', async () => {
    const json = join(project, 'out', 'run.json');
    const junit = join(project, 'out', 'junit.xml');
    expect((await nestcast('--reporter', 'json', '--output', json)).code).toBe(1);
    expect((await nestcast('--reporter', 'junit', '--output', junit)).code).toBe(1);

    const [result] = JSON.parse(await readFile(json, 'utf8')).results;
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0].code).toBe('REQUEST_MISMATCH');
    const consequences = result.failures[0].consequences.map((failure: { code: string }) => failure.code);
    expect(consequences).toContain('TRANSCRIPT_MISMATCH');
    expect(consequences).toContain('EXPECTATION_FAILED');
    expect(consequences).not.toContain('REQUEST_MISMATCH');

    const testcase = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', textNodeName: 'text' }).parse(
      await readFile(junit, 'utf8'),
    ).testsuites.testsuite.testcase;
    expect(testcase.failure.type).toBe('REQUEST_MISMATCH');
    expect(occurrences(testcase.failure.text, '[REQUEST_MISMATCH]')).toBe(1);
    expect(occurrences(testcase.failure.text, JSON.stringify(EDITED))).toBe(1);
  });

  it('the HTML report shows the divergence once as the one failure, the calls it refused point at it, and the sessions it never reached are drawn as expected', async () => {
    const reportDir = join(project, 'html');
    expect((await nestcast('--report', reportDir)).code).toBe(1);
    const page = await readFile(join(reportDir, 'nested.html'), 'utf8');
    // What a reader sees: the page without its embedded data and script, nor the lanes of the
    // other clock, kept in a <template> until the reader switches to it.
    const shown = page.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<template[\s\S]*?<\/template>/g, '');
    expect(shown).toMatch(/<h2 id="failures-heading">1 failure \(and \d+ caused by it\)<\/h2>/);
    expect(occurrences(shown, '<strong>REQUEST_MISMATCH</strong>')).toBe(1);
    expect(occurrences(shown, 'Porto')).toBe(1); // the divergence's live value, in the inline diff only
    expect(shown).not.toMatch(/model name|base URL/);
    expect(shown).toContain('the replay refused model call 1: see the failure above');
    // The sessions the recording expected and the run never reached are drawn, empty and marked.
    expect([...shown.matchAll(/data-missing="([^"]+)"/g)].map((match) => match[1])).toEqual([
      'main/call_planner',
      'main/call_planner/call_food',
    ]);
    expect(shown).toContain('expected, never reached');
  });

  it('scenarioTest fails its vitest test with the mismatch printed once and its consequences listed under it', async () => {
    await symlink(join(process.cwd(), 'node_modules'), join(project, 'node_modules'), 'dir');
    await writeFile(join(project, 'vitest.config.ts'), "export default { test: { pool: 'forks' } };\n");
    await writeFile(
      join(project, 'nested.test.ts'),
      `import { scenarioTest } from ${JSON.stringify(join(process.cwd(), 'toolkit', 'vitest', 'index.ts'))};
scenarioTest('nested');
`,
    );
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
    const child = spawn(process.execPath, [join(process.cwd(), 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
      cwd: project,
      env: { ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));

    expect(code).toBe(1);
    expect(occurrences(output, '[REQUEST_MISMATCH]')).toBe(1);
    expect(occurrences(output, `live:     ${JSON.stringify(EDITED)}`)).toBe(1);
    expect(output).toMatch(/and, because of it, \d+ more failures?:\n {2}- \[TRANSCRIPT_MISMATCH\]/);
    expect(output).not.toContain('Caused by');
  }, 120_000);
});
