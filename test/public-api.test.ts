import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentedNames, readRoot, SUBPATH_ROOTS } from './support/public-api.js';

const REPO = resolve(import.meta.dirname, '..');
const source = async (file: string): Promise<string> => readFile(join(REPO, file), 'utf8');
const sorted = (names: readonly string[]): string[] => [...names].sort();

describe('the public API', () => {
  it('package.json exports exactly the known subpaths, each built by tsup from its root', async () => {
    const manifest = JSON.parse(await source('package.json')) as { exports: Record<string, unknown> };
    expect(Object.keys(manifest.exports).sort()).toEqual(Object.keys(SUBPATH_ROOTS).sort());
    const tsup = await source('tsup.config.ts');
    for (const root of Object.values(SUBPATH_ROOTS)) expect(tsup).toContain(`'${root}'`);
  });

  it('a root that re-exports with `export *` or declares anything itself is reported, line by line', () => {
    const reading = readRoot(
      'x/index.ts',
      "// values\nexport { a } from './a.js';\nexport type { B } from './b.js';\nexport { type C, d } from './c.js';\nexport * from './e.js';\nexport const f = 1;\n",
    );
    expect(reading.names).toEqual(['a', 'type B', 'type C', 'd']);
    expect(reading.problems).toEqual([
      "x/index.ts:5: export * from './e.js'; (a root lists named re-exports only)",
      'x/index.ts:6: export const f = 1; (a root lists named re-exports only)',
    ]);
  });

  it('docs/api.md reads as the name opening each list item of its subpath section, types marked', () => {
    const doc =
      '## `nestcast/a`\n\nProse with `prose`.\n\n### Group `g`\n\n- `one`: calls `other`.\n  `function one(): void`\n- `type Two`\n  `interface Two`\n- `three`\n\n## `nestcast/b`\n\n- `four`\n';
    expect(documentedNames(doc, './a')).toEqual(['one', 'type Two', 'three']);
    expect(documentedNames(doc, './b')).toEqual(['four']);
  });

  it("README.md's library imports each name an export of the subpath it imports from", async () => {
    const readme = await source('README.md');
    const block = /## As a library\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const imports = [...block.matchAll(/^import \{ ([^}]+) \} from 'nestcast\/(\w+)';$/gm)];
    expect(imports.length, 'the block is import lines only').toBe(block.trim().split('\n').length);
    const missing: string[] = [];
    for (const [, list, subpath] of imports) {
      const root = SUBPATH_ROOTS[`./${subpath}`];
      const names = root === undefined ? [] : readRoot(root, await source(root)).names;
      for (const name of (list ?? '').split(', '))
        if (!names.includes(name)) missing.push(`${name} from nestcast/${subpath}`);
    }
    expect(missing).toEqual([]);
  });

  for (const [subpath, root] of Object.entries(SUBPATH_ROOTS)) {
    const name = `nestcast/${subpath.slice(2)}`;

    it(`${name} (${root}) is an explicit list of named re-exports`, async () => {
      expect(readRoot(root, await source(root)).problems).toEqual([]);
    });

    it(`docs/api.md lists exactly what ${name} exports, types as types`, async () => {
      const { names } = readRoot(root, await source(root));
      expect(sorted(documentedNames(await source('docs/api.md'), subpath))).toEqual(sorted(names));
    });
  }
});
