import { join } from 'node:path';
import ts from 'typescript';
import { SUBPATH_ROOTS } from './public-api.js';

/** What each subpath is for (the table) and the paragraph under its heading: the page's only prose. */
const SUBPATHS: Readonly<Record<string, { readonly for: string; readonly intro: string }>> = {
  './harness': {
    for: 'the agent runtime',
    intro:
      'The agent runtime the providers stand on: sessions and their invariants, the model service and adapter,\ntools, agents, background tasks, and the harness as an ACP agent ([architecture.md](architecture.md)).',
  },
  './providers': {
    for: 'the subagent seam, its providers and the `subagent` tool',
    intro:
      'The subagent seam and its providers `spawn`, `fork`, `acp` and `mock`, with the model-facing `subagent` tool\n([subagents.md](subagents.md), [acp.md](acp.md)).',
  },
  './toolkit': {
    for: 'scenarios, record and replay, reports, interop',
    intro:
      'Record and replay: scenarios, cassettes, the recording and replaying fetches, the keyless guard, authored\nscripts and the model server, reports, and the fixtures of other tools ([scenarios.md](scenarios.md),\n[recording.md](recording.md), [cassette-format.md](cassette-format.md), [report.md](report.md),\n[interop.md](interop.md), [frameworks.md](frameworks.md)).',
  },
  './fuzz': {
    for: 'the provider lifecycle conformance suite, and the arbitraries',
    intro:
      'The provider lifecycle conformance suite, for your own provider from a test ([fuzzing.md](fuzzing.md)). From\nthe command line it is `nestcast fuzz --provider <module>`.',
  },
  './vitest': {
    for: 'vitest helpers',
    intro: 'nestcast in vitest: a scenario as a test, and a record/replay cassette per test ([vitest.md](vitest.md)).',
  },
};

/** A signature longer than this is cut (a union of error codes, a large object type): the source has the rest. */
const MAX_SIGNATURE = 220;

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The declaration on one line, its comments left out (they are the page's prose, not its signature), cut. */
function cut(text: string): string {
  // Comments inside a declaration, and the absolute path the checker writes before a type from another package.
  const line = oneLine(text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/import\("[^"]*"\)\./g, ''));
  return line.length <= MAX_SIGNATURE ? line : `${line.slice(0, MAX_SIGNATURE - 1)}…`;
}

/** The first sentence of a TSDoc comment, on one line; empty when there is none. */
export function firstSentence(doc: string): string {
  const text = oneLine(doc.split(/\n\s*\n/)[0] ?? '');
  // A sentence ends at a full stop followed by a space, outside a code span (`a.b` stays whole).
  let inCode = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '`') inCode = !inCode;
    else if (!inCode && text[i] === '.' && (i === text.length - 1 || text[i + 1] === ' ')) return text.slice(0, i + 1);
  }
  return text;
}

/** The declaration's text with its body and doc comment left out: what a reader calls it with. */
function signature(declaration: ts.Declaration, name: string, checker: ts.TypeChecker): string {
  if (ts.isFunctionDeclaration(declaration)) {
    const type = checker.getTypeAtLocation(declaration);
    const signatures = type.getCallSignatures();
    return signatures
      .map((sig) =>
        cut(`function ${name}${checker.signatureToString(sig, declaration, ts.TypeFormatFlags.NoTruncation)}`),
      )
      .join('; ');
  }
  if (ts.isClassDeclaration(declaration)) {
    const heritage = (declaration.heritageClauses ?? []).map((clause) => clause.getText()).join(' ');
    return cut(`class ${name}${heritage ? ` ${heritage}` : ''}`);
  }
  if (ts.isInterfaceDeclaration(declaration)) {
    const params = declaration.typeParameters
      ? `<${declaration.typeParameters.map((p) => p.getText()).join(', ')}>`
      : '';
    const heritage = (declaration.heritageClauses ?? []).map((clause) => clause.getText()).join(' ');
    return cut(`interface ${name}${params}${heritage ? ` ${heritage}` : ''}`);
  }
  if (ts.isTypeAliasDeclaration(declaration)) {
    const params = declaration.typeParameters
      ? `<${declaration.typeParameters.map((p) => p.getText()).join(', ')}>`
      : '';
    return cut(`type ${name}${params} = ${declaration.type.getText()}`);
  }
  if (ts.isVariableDeclaration(declaration)) {
    const type = checker.getTypeAtLocation(declaration);
    return cut(`const ${name}: ${checker.typeToString(type, declaration, ts.TypeFormatFlags.NoTruncation)}`);
  }
  if (ts.isEnumDeclaration(declaration)) return `enum ${name}`;
  return cut(declaration.getText());
}

interface Entry {
  readonly name: string;
  readonly typeOnly: boolean;
  readonly signature: string;
  readonly summary: string;
}

interface Group {
  readonly title: string;
  readonly entries: Entry[];
}

/** The `//` comment right above an export statement, if any: a group's title. */
function groupTitle(statement: ts.Statement, text: string): string | undefined {
  const ranges = ts.getLeadingCommentRanges(text, statement.pos) ?? [];
  const last = ranges[ranges.length - 1];
  if (last === undefined || last.kind !== ts.SyntaxKind.SingleLineCommentTrivia) return undefined;
  // A blank line between the comment and the export: the file's own header, not a group.
  if (/\n\s*\n/.test(text.slice(last.end, statement.getStart()))) return undefined;
  return text
    .slice(last.pos + 2, last.end)
    .trim()
    .replace(/\.$/, '');
}

function readGroups(program: ts.Program, root: string): Group[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(root);
  if (source === undefined) throw new Error(`api doc: ${root} is not in the program`);
  const groups: Group[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause || !ts.isNamedExports(statement.exportClause))
      continue;
    const title = groupTitle(statement, source.text);
    if (title !== undefined || groups.length === 0) groups.push({ title: title ?? 'Exports', entries: [] });
    const group = groups[groups.length - 1] as Group;
    for (const element of statement.exportClause.elements) {
      const local = checker.getSymbolAtLocation(element.name);
      if (local === undefined) throw new Error(`api doc: ${root} exports ${element.name.text}, which does not resolve`);
      const symbol = local.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(local) : local;
      const declaration = symbol.declarations?.[0];
      if (declaration === undefined) throw new Error(`api doc: ${element.name.text} has no declaration`);
      group.entries.push({
        name: element.name.text,
        typeOnly: statement.isTypeOnly || element.isTypeOnly,
        signature: signature(declaration, element.name.text, checker),
        summary: firstSentence(ts.displayPartsToString(symbol.getDocumentationComment(checker))),
      });
    }
  }
  return groups;
}

/**
 * docs/api.md, generated from the subpath roots and the types and TSDoc of what they export:
 * `npm run docs:api` writes it, test/api-doc.test.ts fails when it is stale.
 */
export function renderApiDoc(repo: string): string {
  const configFile = ts.readConfigFile(join(repo, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, repo);
  const roots = Object.values(SUBPATH_ROOTS).map((root) => join(repo, root));
  const program = ts.createProgram(roots, { ...config.options, noEmit: true });
  const lines: string[] = [
    '# Public API',
    '',
    '<!-- Generated by `npm run docs:api` from the subpath roots and their TSDoc: edit those, not this page. -->',
    '',
    'What each subpath of the `nestcast` package exports: everything a user needs, and nothing else. Anything not',
    'listed here is internal: it may change in any release, and importing it by its file path inside `dist/` is',
    'not supported. Types are marked `type`; each one is exported with `export type` and has no runtime value.',
    '',
    'The lists below are the subpath roots, group by group, each name with its signature and the first sentence',
    'of its documentation. `test/public-api.test.ts` fails when a root and this page list different names, and',
    '`test/api-doc.test.ts` when this page is not what `npm run docs:api` writes. To add an export: add it to the',
    'root, under the group it belongs to, with a doc comment, and run `npm run docs:api`.',
    '',
    '| subpath | for |',
    '| --- | --- |',
    ...Object.keys(SUBPATH_ROOTS).map((subpath) => {
      const name = `nestcast/${subpath.slice(2)}`;
      return `| [\`${name}\`](#${name.replace('/', '')}) | ${SUBPATHS[subpath]?.for ?? ''} |`;
    }),
    '',
    "The `nestcast` command (`dist/cli.js`) is the package's `bin`, not an import.",
  ];
  for (const [subpath, root] of Object.entries(SUBPATH_ROOTS)) {
    lines.push('', `## \`nestcast/${subpath.slice(2)}\``, '', SUBPATHS[subpath]?.intro ?? '');
    for (const group of readGroups(program, join(repo, root))) {
      lines.push('', `### ${group.title}`, '');
      for (const entry of group.entries) {
        const summary = entry.summary === '' ? '' : `: ${entry.summary}`;
        lines.push(
          `- \`${entry.typeOnly ? 'type ' : ''}${entry.name}\`${summary}`,
          `  \`${entry.signature.replaceAll('`', "'")}\``,
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
