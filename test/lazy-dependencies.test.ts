import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI, ensureBuiltCli } from './support/built-cli.js';
import { makeTempDir, removeTempDir } from './support/temp-dir.js';

// Dependencies only some users need are loaded by the features that use them, never by importing
// an entry: the ACP SDK by an ACP child's start or by serving the harness over ACP, fast-check by
// the fuzzer and the arbitraries (`nestcast/fuzz`), tsx by loading a scenario file outside vitest.
const ON_DEMAND = ['@agentclientprotocol/sdk', 'fast-check', 'tsx'];
const DIST = join(BUILT_CLI, '..');

/**
 * A preload that prints the npm packages a process loaded when it exits: a load hook sees every
 * module, ES or CommonJS. In-thread where Node has `module.registerHooks`, else off-thread (Node 20).
 */
const PACKAGE_PROBE = `import module from 'node:module';
const hook = \`export function load(url, context, next) {
  const found = /node_modules\\\\/((?:@[^/]+\\\\/)?[^/]+)\\\\//.exec(url);
  if (found) process.stderr.write('PACKAGE ' + found[1] + '\\\\n');
  return next(url, context);
}\`;
const source = 'data:text/javascript,' + encodeURIComponent(hook);
if (module.registerHooks) module.registerHooks({ load: (await import(source)).load });
else module.register(source);
`;

let dir: string;
let probe: string;
beforeAll(async () => {
  await ensureBuiltCli();
  dir = await makeTempDir('lazy-');
  probe = join(dir, 'package-probe.mjs');
  await writeFile(probe, PACKAGE_PROBE);
}, 600_000);
afterAll(async () => {
  await removeTempDir(dir);
});

/** The npm packages a fresh node process loads to import the built `file` (under dist/). */
async function packagesLoadedBy(file: string): Promise<string[]> {
  const entry = pathToFileURL(join(DIST, file)).href;
  const { stderr } = await promisify(execFile)(
    process.execPath,
    ['--import', pathToFileURL(probe).href, '--input-type=module', '-e', `await import(${JSON.stringify(entry)});`],
    { env: { PATH: process.env['PATH'] ?? '' } },
  );
  const loaded = stderr.split('\n').filter((line) => line.startsWith('PACKAGE '));
  return [...new Set(loaded.map((line) => line.slice('PACKAGE '.length)))].sort();
}

describe('importing an entry loads no dependency that only some features need', () => {
  // nestcast/vitest extends vitest's `test` as it loads, so only vitest can load it: not probed here.
  it.each([['toolkit/index.js'], ['harness/index.js'], ['providers/index.js']])(
    '%s loads neither the ACP SDK, fast-check nor tsx, and does load its own dependencies',
    async (file) => {
      const loaded = await packagesLoadedBy(file);
      expect(loaded).toContain('ajv');
      expect(loaded.filter((name) => ON_DEMAND.includes(name))).toEqual([]);
    },
    60_000,
  );

  it('nestcast/fuzz, the fuzzer and the arbitraries, loads fast-check and nothing else of them', async () => {
    const loaded = await packagesLoadedBy('fuzz.js');
    expect(loaded.filter((name) => ON_DEMAND.includes(name))).toEqual(['fast-check']);
  }, 60_000);
});
