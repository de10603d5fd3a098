import { mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import module from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer } from '../../toolkit/model-server/model-server.js';
import { ensureBuiltCli } from '../support/built-cli.js';
import { docSnippet } from '../support/doc-snippet.js';
import { failedRun, sh } from '../support/newcomer-shell.js';
import { documentedNames, valueNames } from '../support/public-api.js';
import { listFiles, makeTempDir, removeTempDir } from '../support/temp-dir.js';

// The newcomer's path, for real: the packed tarball installed into fresh projects of both module
// kinds, a scenario copied from the docs, recorded keyless, replayed by the CLI and by vitest.
const REPO = process.cwd();
const repoVersions = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

let root: string;
let tarball: string;
/** docs/scenarios.md's program scenario around the reader's own Agents SDK code, as the doc shows it. */
const PROGRAM_FILE = 'scenarios/agents-sdk-parallel.scenario.ts';
let programScenario: string;
const projects: Record<'esm' | 'cjs', string> = { esm: '', cjs: '' };

beforeAll(async () => {
  root = await makeTempDir('newcomer-');
  // dist/ is what gets packed: CI builds it first, a stale one is rebuilt here once for every
  // test file; --ignore-scripts, or `prepare` would rebuild it under the other files' feet.
  await ensureBuiltCli();
  const packed = JSON.parse(
    await sh(REPO, 'npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', root]).then((out) =>
      out.slice(out.indexOf('[')),
    ),
  ) as Array<{ filename: string }>;
  tarball = join(root, packed[0]?.filename ?? '');
  const scenario = await docSnippet(join(REPO, 'docs', 'scenarios.md'), 'scenarios/hello-child.scenario.ts');
  const vitestFile = await docSnippet(join(REPO, 'docs', 'vitest.md'), 'test/scenarios.test.ts');
  programScenario = await docSnippet(join(REPO, 'docs', 'scenarios.md'), PROGRAM_FILE);
  await Promise.all(
    (['esm', 'cjs'] as const).map(async (kind) => {
      const dir = join(root, kind);
      projects[kind] = dir;
      await mkdir(join(dir, 'scenarios'), { recursive: true });
      await mkdir(join(dir, 'test'), { recursive: true });
      const manifest = {
        name: `newcomer-${kind}`,
        version: '1.0.0',
        private: true,
        ...(kind === 'esm' ? { type: 'module' } : {}),
      };
      await writeFile(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
      await writeFile(join(dir, 'scenarios', 'hello-child.scenario.ts'), scenario);
      await writeFile(join(dir, 'test', 'scenarios.test.ts'), vitestFile);
      // From the npm cache that `npm ci` warmed, at this repository's own versions.
      const pinned = ['vitest', 'openai', '@openai/agents'].map(
        (name) => `${name}@${repoVersions.devDependencies[name]}`,
      );
      await sh(dir, 'npm', [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '-D',
        tarball,
        ...pinned,
      ]);
    }),
  );
}, 240_000);

afterAll(async () => {
  await removeTempDir(root);
});

describe.concurrent.each(['esm', 'cjs'] as const)('a fresh %s project with the packed tarball', (kind) => {
  it("records the docs scenario keyless and docs/vitest.md's cassette test, then replays both with `npx nestcast run` and `npx vitest run`, keyless", async () => {
    const dir = projects[kind];
    expect(await sh(dir, 'npx', ['nestcast', 'record', 'hello-child'])).toContain('1 scenario passed');
    expect(await listFiles(join(dir, 'recordings', 'hello-child'))).toContain('meta.json');
    expect(await sh(dir, 'npx', ['nestcast', 'run'])).toMatch(
      /✓ hello-child {2}2 sessions {2}3 model calls[\s\S]*1 scenario passed/,
    );

    await writeFile(
      join(dir, 'test', 'weather.test.ts'),
      await docSnippet(join(REPO, 'docs', 'vitest.md'), 'test/weather.test.ts'),
    );
    // The "real API" is a loopback model server; the SDK takes its URL from OPENAI_BASE_URL.
    const api = await startModelServer({ scripts: { model: 'gpt-4o-mini', lineages: { main: [{ text: 'Sunny.' }] } } });
    try {
      const key = 'sk-newcomer-0123456789abcdef';
      await sh(dir, 'npx', ['vitest', 'run', 'test/weather.test.ts'], {
        NESTCAST_RECORD: 'all',
        OPENAI_API_KEY: key,
        OPENAI_BASE_URL: api.url,
      });
      const cassette = join(dir, 'test', '__recordings__', 'the-assistant-answers-the-weather-question');
      const files = await listFiles(cassette);
      expect(files).toEqual(['calls/main.jsonl', 'meta.json']);
      for (const file of files) expect(await readFile(join(cassette, file), 'utf8')).not.toContain(key);
      const seen = api.requests('main').length;

      const vitest = await sh(dir, 'npx', ['vitest', 'run', '--reporter', 'verbose']);
      expect(vitest).toMatch(/✓ .*scenario hello-child replays as recorded/);
      expect(vitest).toMatch(/✓ .*the assistant answers the weather question/);
      expect(vitest).toMatch(/Tests +2 passed/);
      expect(api.requests('main')).toHaveLength(seen);
    } finally {
      await api.close();
    }
  }, 180_000);
});

/**
 * A preload that prints every file of the installed nestcast the process loads, with its full URL:
 * what Node loaded, whichever loader (tsx's namespace, ours) resolved it. In-thread where Node has
 * `module.registerHooks`, else off-thread (Node 20), which writes from the hooks thread.
 */
const LOAD_PROBE = `import module from 'node:module';
const hook = \`export function load(url, context, next) {
  if (url.includes('/node_modules/nestcast/dist/')) process.stderr.write('LOADED ' + url + '\\\\n');
  return next(url, context);
}\`;
const source = 'data:text/javascript,' + encodeURIComponent(hook);
if (module.registerHooks) module.registerHooks({ load: (await import(source)).load });
else module.register(source);
`;

/** Whether Node has in-thread module hooks (`module.registerHooks`: 22.15, 23.5 and later), which LOAD_PROBE then uses. */
const hooksInThread = typeof (module as { registerHooks?: unknown }).registerHooks === 'function';

describe.each(['esm', 'cjs'] as const)('the packed tarball in a fresh %s project', (kind) => {
  it("loads one nestcast: a scenario module's `nestcast` imports resolve to the CLI's own install, never a second copy under tsx's namespace, serially and in workers", async () => {
    const dir = projects[kind];
    await writeFile(
      join(dir, 'scenarios', 'probe.scenario.ts'),
      [
        "import { defineScenario } from 'nestcast/toolkit';",
        'export default defineScenario({',
        "  name: 'probe',",
        "  description: 'where its nestcast import resolves',",
        "  steps: [{ prompt: 'hi' }],",
        "  script: { lineages: { main: [{ text: 'hi' }] } },",
        '});',
      ].join('\n'),
    );
    const probe = join(root, `load-probe-${kind}.mjs`);
    await writeFile(probe, LOAD_PROBE);
    const env = { NODE_OPTIONS: `--import=${pathToFileURL(probe).href}` };
    const serial = await sh(dir, 'npx', ['nestcast', 'record', 'probe'], env);
    const inWorkers = await sh(dir, 'npx', ['nestcast', 'run', '--workers', '2'], env);
    expect(inWorkers).toContain('2 scenarios passed');
    const own = pathToFileURL(
      await realpath(join(dir, 'node_modules', 'nestcast', 'dist', 'toolkit', 'index.js')),
    ).href;
    for (const output of [serial, inWorkers]) {
      const loaded = output
        .split('\n')
        .filter((line) => line.startsWith('LOADED '))
        .map((line) => line.slice('LOADED '.length));
      // Node 20's off-thread hooks do not see what a CommonJS module requires (require of an ES
      // module): there only a namespaced load would show. In-thread hooks see every load.
      if (kind === 'esm' || hooksInThread) expect(loaded).toContain(own);
      expect(loaded.filter((url) => url.includes('?') || url.includes('%3F'))).toEqual([]);
    }
  }, 180_000);
});

describe.each(['esm', 'cjs'] as const)('a fresh %s project with its own Agents SDK code', (kind) => {
  it("copies docs/scenarios.md's program scenario word for word, records it keyless, replays it, and a prompt edited on purpose fails once, naming the session, the call and the difference", async () => {
    const dir = projects[kind];
    await writeFile(join(dir, PROGRAM_FILE), programScenario);
    // The doc's two commands, as it gives them.
    const recorded = await sh(dir, 'npx', ['nestcast', 'record', 'agents-sdk-parallel']);
    expect(recorded).toContain('1 scenario passed');
    expect(await listFiles(join(dir, 'recordings', 'agents-sdk-parallel'))).toContain('meta.json');
    expect(await sh(dir, 'npx', ['nestcast', 'run', 'agents-sdk-parallel'])).toMatch(
      /✓ agents-sdk-parallel {2}4 sessions {2}6 model calls[\s\S]*1 scenario passed/,
    );

    // The newcomer edits the fact agent's prompt and forgets to record again.
    const original = "instructions: 'You know facts about the sea.'";
    expect(programScenario).toContain(original);
    await writeFile(
      join(dir, PROGRAM_FILE),
      programScenario.replace(original, "instructions: 'You know facts about the ocean.'"),
    );
    const broken = await failedRun(dir, 'npx', ['nestcast', 'run', 'agents-sdk-parallel']);
    expect(broken.exitCode, broken.output).toBe(1);
    // One headline, indented under the scenario's line; what follows from it is listed under it.
    const headlines = broken.output.split('\n').filter((line) => /^ {4}[A-Z_]+ agents-sdk-parallel: /.test(line));
    expect(headlines, broken.output).toEqual([
      expect.stringMatching(
        /^ {4}REQUEST_MISMATCH agents-sdk-parallel: Model call 1 of session "main\/call_tides\/call_period" does not match .* at instructions:$/,
      ),
    ]);
    expect(broken.output).toContain('recorded: "You know facts about the sea."');
    expect(broken.output).toContain('live:     "You know facts about the ocean."');
    expect(broken.output).toContain('1 of 1 scenario failed');
  }, 180_000);
});

describe('the packed tarball', () => {
  it('ships the README and the docs beside dist, and says what it is about', async () => {
    const listed = (await sh(root, 'tar', ['tzf', tarball])).split('\n');
    expect(listed).toEqual(
      expect.arrayContaining([
        'package/README.md',
        'package/docs/vitest.md',
        'package/docs/scenarios.md',
        'package/dist/cli.js',
      ]),
    );
    const manifest = JSON.parse(
      await readFile(join(projects.esm, 'node_modules', 'nestcast', 'package.json'), 'utf8'),
    ) as { keywords?: string[] };
    expect(manifest.keywords).toEqual(expect.arrayContaining(['vitest', 'record-replay']));
  });

  it('serves every subpath of "exports" with its types file, and at run time exactly the values docs/api.md lists', async () => {
    const installed = join(projects.esm, 'node_modules', 'nestcast');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as {
      exports: Record<string, { types: string }>;
    };
    for (const entry of Object.values(manifest.exports))
      expect((await stat(join(installed, entry.types))).isFile()).toBe(true);
    // nestcast/vitest extends vitest's `test` as it loads, so only vitest can load it: the vitest run above does.
    const plain = Object.keys(manifest.exports).filter((subpath) => subpath !== './vitest');
    const script = `const out = {}; for (const s of ${JSON.stringify(plain)}) out[s] = Object.keys(await import('nestcast' + s.slice(1))).sort(); console.log('EXPORTS ' + JSON.stringify(out));`;
    const printed =
      (await sh(projects.esm, 'node', ['--input-type=module', '-e', script]))
        .split('\n')
        .find((line) => line.startsWith('EXPORTS ')) ?? '';
    const loaded = JSON.parse(printed.slice('EXPORTS '.length)) as Record<string, string[]>;
    const doc = await readFile(join(REPO, 'docs', 'api.md'), 'utf8');
    expect(Object.keys(loaded)).toEqual(plain);
    for (const subpath of plain)
      expect(loaded[subpath], subpath).toEqual(valueNames(documentedNames(doc, subpath)).sort());
  });
});
