import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/** What each layer may import from the repository: the layers before it, never after. */
const allowed: Record<string, readonly string[]> = {
  harness: ['harness'],
  providers: ['harness', 'providers'],
};

/**
 * The toolkit modules shared test/ fixtures still import, each named so that no other one comes
 * into a harness or provider test unseen: the scripted model is the toolkit's model server (the
 * one users script), and the ACP kit's liveness probe is the fuzzer's.
 */
const knownToolkitEdges: Readonly<Record<string, readonly string[]>> = {
  'test/support/scripted-runtime.ts': ['toolkit/authored/types.ts', 'toolkit/model-server/model-server.ts'],
  'test/fixtures/acp/acp-test-kit.ts': ['toolkit/fuzz/liveness.ts'],
};

async function layerFiles(dir: string, tests: boolean): Promise<string[]> {
  const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|mts)$/.test(entry.name) && /\.test\.ts$/.test(entry.name) === tests)
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

const sourceFiles = (dir: string) => layerFiles(dir, false);

/** Every relative module specifier of a file: static imports and exports, and dynamic `import()`. */
function relativeSpecifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g))
    found.push(match[1] as string);
  return found;
}

/** A repository path a specifier of `file` names: `x.js` is the `x.ts` it is compiled from. */
function target(file: string, specifier: string): string {
  return relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts');
}

/**
 * Every import a test file makes outside the layers it may use: its own, and those of the test/
 * fixtures it reaches (a fixture's imports count as the test's), each as `file imports x (top/)`.
 */
async function testBreaches(
  file: string,
  layers: readonly string[],
  read: (path: string) => Promise<string>,
): Promise<string[]> {
  const offending: string[] = [];
  const seen = new Set<string>([file]);
  const queue = [file];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const specifier of relativeSpecifiers(await read(at))) {
      const path = target(at, specifier);
      const top = path.split('/')[0] as string;
      if (layers.includes(top) || knownToolkitEdges[at]?.includes(path)) continue;
      if (top !== 'test')
        offending.push(`${at} imports ${specifier} (${top}/)${at === file ? '' : `, reached from ${file}`}`);
      else if (!seen.has(path)) {
        queue.push(path);
        seen.add(path);
      }
    }
  }
  return offending;
}

describe('layering', () => {
  for (const [layer, layers] of Object.entries(allowed)) {
    test(`${layer}/ source imports only ${layers.join(' and ')}/`, async () => {
      const offending: string[] = [];
      for (const file of await sourceFiles(layer)) {
        const text = await readFile(join(root, file), 'utf8');
        for (const specifier of relativeSpecifiers(text)) {
          const target = relative(root, resolve(root, dirname(file), specifier));
          const top = target.split('/')[0] as string;
          if (!layers.includes(top)) offending.push(`${file} imports ${specifier} (${top}/)`);
        }
      }
      expect(offending).toEqual([]);
    });
  }

  for (const [layer, layers] of Object.entries(allowed)) {
    test(`${layer}/ tests import only ${layers.join(' and ')}/ and test/ fixtures that do the same`, async () => {
      const offending: string[] = [];
      const read = (path: string) => readFile(join(root, path), 'utf8');
      for (const file of await layerFiles(layer, true)) offending.push(...(await testBreaches(file, layers, read)));
      expect(offending).toEqual([]);
    });
  }

  test('the test check sees the toolkit behind a fixture, and lets by only the known edges of a known fixture', async () => {
    const files: Record<string, string> = {
      'providers/a/a.test.ts': `import { kit } from '../../test/support/kit.js';\nimport { run } from '../../test/support/scripted-runtime.js';`,
      'test/support/kit.ts': `import { helper } from './helper.js';`,
      'test/support/helper.ts': `import { server } from '../../toolkit/model-server/model-server.js';`,
      'test/support/scripted-runtime.ts': `import { server } from '../../toolkit/model-server/model-server.js';\nimport { x } from '../../toolkit/cli/x.js';`,
    };
    const read = async (path: string) => files[path] ?? '';
    expect(await testBreaches('providers/a/a.test.ts', allowed['providers'] as readonly string[], read)).toEqual([
      'test/support/scripted-runtime.ts imports ../../toolkit/cli/x.js (toolkit/), reached from providers/a/a.test.ts',
      'test/support/helper.ts imports ../../toolkit/model-server/model-server.js (toolkit/), reached from providers/a/a.test.ts',
    ]);
  });

  test('the check sees a forbidden import when there is one', () => {
    expect(
      relativeSpecifiers(
        `import { x } from '../../toolkit/cassette/index.js';\nconst m = await import('../toolkit/a.js');`,
      ),
    ).toEqual(['../../toolkit/cassette/index.js', '../toolkit/a.js']);
  });
});
