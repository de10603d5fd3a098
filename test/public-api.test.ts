import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..');

/** Each subpath of package.json "exports", and the source root tsup builds it from. */
const ROOTS: Readonly<Record<string, string>> = {
  './harness': 'harness/index.ts',
  './providers': 'providers/index.ts',
  './toolkit': 'toolkit/index.ts',
  './fuzz': 'toolkit/fuzz/index.ts',
  './vitest': 'toolkit/vitest/index.ts',
};

interface RootReading {
  /** Exported names, `type X` for a type-only export, in source order. */
  readonly names: string[];
  /** Every statement that is not a named re-export, as `file:line: what`. */
  readonly problems: string[];
}

/** What a subpath root exports, read from its source: it may hold named re-exports and nothing else. */
function readRoot(file: string, text: string): RootReading {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const problems: string[] = [];
  for (const statement of source.statements) {
    const where = `${file}:${source.getLineAndCharacterOfPosition(statement.getStart()).line + 1}`;
    const clause = ts.isExportDeclaration(statement) ? statement.exportClause : undefined;
    if (!ts.isExportDeclaration(statement) || statement.moduleSpecifier === undefined || clause === undefined || !ts.isNamedExports(clause)) {
      problems.push(`${where}: ${statement.getText(source).split('\n')[0]} (a root lists named re-exports only)`);
      continue;
    }
    for (const element of clause.elements) names.push(`${statement.isTypeOnly || element.isTypeOnly ? 'type ' : ''}${element.name.text}`);
  }
  return { names, problems };
}

/** The names docs/api.md lists under `## \`nestcast/<subpath>\``: the backticked names in that section's list items. */
function documentedNames(doc: string, subpath: string): string[] {
  const sections = doc.split(/^## /m);
  const section = sections.find((text) => text.startsWith(`\`nestcast/${subpath.slice(2)}\``)) ?? '';
  const items = section.split('\n').filter((line) => /^(- | {2})/.test(line));
  return items.flatMap((line) => [...line.matchAll(/`((?:type )?[A-Za-z_$][\w$]*)`/g)].map((match) => match[1] as string));
}

const sorted = (names: readonly string[]): string[] => [...names].sort();
const source = async (file: string): Promise<string> => readFile(join(REPO, file), 'utf8');

describe('the public API', () => {
  it('package.json exports exactly the subpaths listed here, each built by tsup from its root', async () => {
    const manifest = JSON.parse(await source('package.json')) as { exports: Record<string, unknown> };
    expect(Object.keys(manifest.exports).sort()).toEqual(Object.keys(ROOTS).sort());
    const tsup = await source('tsup.config.ts');
    for (const root of Object.values(ROOTS)) expect(tsup).toContain(`'${root}'`);
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

  for (const [subpath, root] of Object.entries(ROOTS)) {
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
