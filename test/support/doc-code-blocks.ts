/**
 * The docs' code-block markers (docs/architecture.md, "Where to add"): the last non-blank line
 * before every fenced block is `<!-- runs: <test file> -->` or `<!-- fragment: <why> -->`.
 * Prettier puts a blank line between an HTML comment and a fence, so blank lines may separate them.
 */

/** What the line before a block says about it. */
export type BlockMarker =
  | { readonly kind: 'runs'; readonly line: number; readonly test: string }
  | { readonly kind: 'fragment'; readonly line: number; readonly reason: string };

export interface DocCodeBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The fence's info string (`ts`, `sh`, …), empty when it has none. */
  readonly info: string;
  readonly marker: BlockMarker | undefined;
}

/** One thing wrong with a doc's blocks or markers, at a 1-based line. */
export interface DocBlockProblem {
  readonly line: number;
  readonly message: string;
}

export interface DocCodeBlocks {
  readonly blocks: readonly DocCodeBlock[];
  readonly problems: readonly DocBlockProblem[];
}

const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;
/** Any comment that starts like a marker, so a misspelt one is an error rather than ignored. */
const MARKER_LIKE = /^\s*<!--\s*(runs?|fragments?)\b/i;
const RUNS = /^\s*<!-- runs: (\S+\.test\.ts) -->\s*$/;
const FRAGMENT = /^\s*<!-- fragment(?:: (.*\S))? -->\s*$/;

const HOW = 'no `<!-- runs: <test file> -->` or `<!-- fragment: <why> -->` line before it';

function parseMarker(text: string, line: number): BlockMarker | DocBlockProblem | undefined {
  if (!MARKER_LIKE.test(text)) return undefined;
  const runs = RUNS.exec(text);
  if (runs) return { kind: 'runs', line, test: runs[1] as string };
  const fragment = FRAGMENT.exec(text);
  if (fragment) return { kind: 'fragment', line, reason: fragment[1] ?? '' };
  return {
    line,
    message: `malformed marker ${JSON.stringify(text.trim())}: write \`<!-- runs: path/to/file.test.ts -->\` or \`<!-- fragment: why -->\``,
  };
}

/** A closing fence: the opening's character, at least as many of it, and nothing after. */
function closes(fence: RegExpExecArray, opening: string): boolean {
  const marks = fence[1] ?? '';
  return marks[0] === opening[0] && marks.length >= opening.length && (fence[2] ?? '').trim() === '';
}

/** The fenced code blocks of a markdown text, each with the marker before it, and every misplaced or malformed marker. */
export function findDocCodeBlocks(markdown: string): DocCodeBlocks {
  const lines = markdown.split('\n');
  const blocks: DocCodeBlock[] = [];
  const problems: DocBlockProblem[] = [];
  let pending: BlockMarker | undefined;
  let open: { fence: string; line: number } | undefined;
  lines.forEach((text, index) => {
    const line = index + 1;
    const fence = FENCE.exec(text);
    if (open) {
      if (fence && closes(fence, open.fence)) open = undefined;
      return;
    }
    if (fence) {
      const info = (fence[2] as string).trim();
      blocks.push({ line, info, marker: pending });
      if (!pending) problems.push({ line, message: `a \`\`\`${info} block with ${HOW}` });
      pending = undefined;
      open = { fence: fence[1] as string, line };
      return;
    }
    if (text.trim() === '') return;
    if (pending) problems.push({ line: pending.line, message: 'a marker not followed by a code block' });
    const marker = parseMarker(text, line);
    if (marker && 'message' in marker) problems.push(marker);
    pending = marker && 'kind' in marker ? marker : undefined;
  });
  if (pending) problems.push({ line: pending.line, message: 'a marker not followed by a code block' });
  if (open) problems.push({ line: open.line, message: 'a code block that is never closed' });
  return { blocks, problems };
}

/**
 * Every problem of one doc as `file:line: message`: its blocks' and markers' problems, and each
 * `runs:` marker whose test is missing (`testSource` gives undefined) or never names the doc's file.
 */
export function docCodeBlockProblems(
  file: string,
  markdown: string,
  testSource: (test: string) => string | undefined,
): string[] {
  const { blocks, problems } = findDocCodeBlocks(markdown);
  const found = problems.map((problem) => `${file}:${problem.line}: ${problem.message}`);
  const docName = file.slice(file.lastIndexOf('/') + 1);
  for (const { marker } of blocks) {
    if (marker?.kind !== 'runs') continue;
    const source = testSource(marker.test);
    if (source === undefined) found.push(`${file}:${marker.line}: runs: ${marker.test}, which does not exist`);
    else if (!source.includes(docName))
      found.push(`${file}:${marker.line}: runs: ${marker.test}, which never names ${docName}, so it cannot read it`);
  }
  return found;
}
