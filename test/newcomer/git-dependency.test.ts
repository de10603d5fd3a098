import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer } from '../../toolkit/model-server/model-server.js';
import { docSnippet } from '../support/doc-snippet.js';
import { sh } from '../support/newcomer-shell.js';
import { listFiles, makeTempDir, removeTempDir } from '../support/temp-dir.js';

// Installing nestcast as a git dependency: npm clones the repository, installs its dev
// dependencies, runs `prepare` (the package build) and packs the result. The repository here is a
// scratch git clone of this working tree's files, so what is tested is what is checked out.
const REPO = process.cwd();
const repoVersions = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

let root: string;
let project: string;

beforeAll(async () => {
  root = await makeTempDir('git-dependency-');
  const clone = join(root, 'nestcast.git');
  const tracked = (await sh(REPO, 'git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard']))
    .split('\0')
    .filter((file) => file !== '');
  for (const file of tracked) {
    await mkdir(dirname(join(clone, file)), { recursive: true });
    await cp(join(REPO, file), join(clone, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // deleted in the working tree, still in the index
    });
  }
  const identity = ['-c', 'user.name=newcomer', '-c', 'user.email=newcomer@nestcast.invalid'];
  await sh(clone, 'git', ['init', '-q']);
  await sh(clone, 'git', ['add', '-A']);
  await sh(clone, 'git', [...identity, 'commit', '-qm', 'scratch']);

  project = join(root, 'project');
  await mkdir(join(project, 'test'), { recursive: true });
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'git-newcomer', version: '1.0.0', private: true, type: 'module' }, null, 2),
  );
  const pinned = ['vitest', 'openai'].map((name) => `${name}@${repoVersions.devDependencies[name]}`);
  // From the npm cache that `npm ci` warmed: the clone's own dev dependencies too.
  await sh(project, 'npm', [
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    '-D',
    `git+file://${clone}`,
    ...pinned,
  ]);
}, 600_000);

afterAll(async () => {
  await removeTempDir(root);
});

describe('nestcast as a git dependency', () => {
  it("installs from a git+file URL with its command built by `prepare`, and records and replays docs/vitest.md's cassette test", async () => {
    expect(await sh(project, 'npx', ['nestcast', '--help'])).toMatch(
      /Usage: nestcast <command>[\s\S]*\n  run +Replay scenarios keyless/,
    );

    await writeFile(
      join(project, 'test', 'weather.test.ts'),
      await docSnippet(join(REPO, 'docs', 'vitest.md'), 'test/weather.test.ts'),
    );
    const api = await startModelServer({ scripts: { model: 'gpt-4o-mini', lineages: { main: [{ text: 'Sunny.' }] } } });
    try {
      await sh(project, 'npx', ['vitest', 'run', 'test/weather.test.ts'], {
        NESTCAST_RECORD: 'all',
        OPENAI_API_KEY: 'sk-newcomer-0123456789abcdef',
        OPENAI_BASE_URL: api.url,
      });
      const cassette = join(project, 'test', '__recordings__', 'the-assistant-answers-the-weather-question');
      expect(await listFiles(cassette)).toEqual(['calls/main.jsonl', 'meta.json']);
      const seen = api.requests('main').length;
      expect(await sh(project, 'npx', ['vitest', 'run'])).toMatch(/Tests +1 passed/);
      expect(api.requests('main')).toHaveLength(seen);
    } finally {
      await api.close();
    }
  }, 180_000);
});
