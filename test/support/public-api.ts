import ts from 'typescript';

/** Each subpath of package.json "exports", and the source root tsup builds it from. */
export const SUBPATH_ROOTS: Readonly<Record<string, string>> = {
  './harness': 'harness/index.ts',
  './providers': 'providers/index.ts',
  './toolkit': 'toolkit/index.ts',
  './fuzz': 'toolkit/fuzz/index.ts',
  './vitest': 'toolkit/vitest/index.ts',
};

export interface RootReading {
  /** Exported names, `type X` for a type-only export, in source order. */
  readonly names: string[];
  /** Every statement that is not a named re-export, as `file:line: what`. */
  readonly problems: string[];
}

/** What a subpath root exports, read from its source: it may hold named re-exports and nothing else. */
export function readRoot(file: string, text: string): RootReading {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const problems: string[] = [];
  for (const statement of source.statements) {
    const where = `${file}:${source.getLineAndCharacterOfPosition(statement.getStart()).line + 1}`;
    const clause = ts.isExportDeclaration(statement) ? statement.exportClause : undefined;
    if (
      !ts.isExportDeclaration(statement) ||
      statement.moduleSpecifier === undefined ||
      clause === undefined ||
      !ts.isNamedExports(clause)
    ) {
      problems.push(`${where}: ${statement.getText(source).split('\n')[0]} (a root lists named re-exports only)`);
      continue;
    }
    for (const element of clause.elements)
      names.push(`${statement.isTypeOnly || element.isTypeOnly ? 'type ' : ''}${element.name.text}`);
  }
  return { names, problems };
}

/** The names that exist at run time: all but the `type` ones. */
export function valueNames(names: readonly string[]): string[] {
  return names.filter((name) => !name.startsWith('type '));
}

/**
 * The names docs/api.md lists under `## \`nestcast/<subpath>\``: the backticked name that opens each
 * list item (`- \`name\`: what it is`, its signature on the next line).
 */
export function documentedNames(doc: string, subpath: string): string[] {
  const section = doc.split(/^## /m).find((text) => text.startsWith(`\`nestcast/${subpath.slice(2)}\``)) ?? '';
  return section
    .split('\n')
    .map((line) => /^- `((?:type )?[A-Za-z_$][\w$]*)`/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}
