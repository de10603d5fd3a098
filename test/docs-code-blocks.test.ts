import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDocCodeBlocks } from './support/doc-code-blocks.js';

const REPO = resolve(import.meta.dirname, '..');

/** docs/api.md is generated whole from the types and checked whole by test/api-doc.test.ts. */
const GENERATED = new Set(['docs/api.md']);

async function docFiles(): Promise<string[]> {
  const docs = (await readdir(join(REPO, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  return ['README.md', ...docs.filter((file) => !GENERATED.has(file)).sort()];
}

/** Every problem of one doc as `file:line: message`, including `runs:` markers naming a test that does not read the doc. */
async function problemsOf(file: string): Promise<string[]> {
  const { blocks, problems } = findDocCodeBlocks(await readFile(join(REPO, file), 'utf8'));
  const found = problems.map((problem) => `${file}:${problem.line}: ${problem.message}`);
  for (const { marker } of blocks) {
    if (marker?.kind !== 'runs') continue;
    const test = join(REPO, marker.test);
    if (!existsSync(test)) found.push(`${file}:${marker.line}: runs: ${marker.test}, which does not exist`);
    else if (!(await readFile(test, 'utf8')).includes(basename(file)))
      found.push(
        `${file}:${marker.line}: runs: ${marker.test}, which never names ${basename(file)}, so it cannot read it`,
      );
  }
  return found;
}

describe('the code blocks of README.md and docs/', () => {
  it('each run in a docs test or are marked as a fragment', async () => {
    const files = await docFiles();
    expect(files).toContain('docs/scenarios.md');
    const problems = (await Promise.all(files.map(problemsOf))).flat();
    expect(problems, `see "A code block in the docs" in docs/architecture.md\n${problems.join('\n')}`).toEqual([]);
  });
});

describe('findDocCodeBlocks', () => {
  it('reads the marker on the last non-blank line before each block, blank lines between allowed', () => {
    const { blocks, problems } = findDocCodeBlocks(
      [
        '# Title',
        '',
        '<!-- runs: test/a.test.ts -->',
        '```ts',
        'const a = 1;',
        '```',
        '',
        'A list:',
        '',
        '1. step',
        '',
        '   <!-- fragment: needs a key -->',
        '',
        '   ```sh',
        '   npx nestcast record',
        '   ```',
        '<!-- fragment -->',
        '~~~',
        '```not a fence inside a ~~~ block',
        '~~~',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(blocks).toEqual([
      { line: 4, info: 'ts', marker: { kind: 'runs', line: 3, test: 'test/a.test.ts' } },
      { line: 14, info: 'sh', marker: { kind: 'fragment', line: 12, reason: 'needs a key' } },
      { line: 18, info: '', marker: { kind: 'fragment', line: 17, reason: '' } },
    ]);
  });

  it('names the line of a block with no marker, even when a paragraph or another comment comes between', () => {
    const { problems } = findDocCodeBlocks(
      [
        'Run:',
        '',
        '```sh',
        'npm test',
        '```',
        '',
        '<!-- fragment -->',
        'text',
        '```json',
        '{}',
        '```',
        '<!-- note -->',
        '```',
        'x',
        '```',
      ].join('\n'),
    );
    expect(problems).toEqual([
      { line: 3, message: expect.stringContaining('a ```sh block with no') },
      { line: 7, message: 'a marker not followed by a code block' },
      { line: 9, message: expect.stringContaining('a ```json block with no') },
      { line: 13, message: expect.stringContaining('a ``` block with no') },
    ]);
  });

  it('rejects a misspelt marker, a runs marker naming no test file, a marker at the end, and an unclosed block', () => {
    const { problems } = findDocCodeBlocks(
      [
        '<!-- run: test/a.test.ts -->',
        '```ts',
        '```',
        '<!-- runs: docs/example.mjs -->',
        '```js',
        '```',
        '<!-- fragments -->',
        '```',
        '```',
      ].join('\n'),
    );
    expect(problems.map((problem) => problem.line)).toEqual([1, 2, 4, 5, 7, 8]);
    expect(problems[0]?.message).toMatch(/^malformed marker "<!-- run: test\/a\.test\.ts -->"/);
    expect(problems[2]?.message).toMatch(/^malformed marker "<!-- runs: docs\/example\.mjs -->"/);
    expect(problems[4]?.message).toMatch(/^malformed marker "<!-- fragments -->"/);
    const { problems: atEnd } = findDocCodeBlocks(['```sh', '```', '', '<!-- fragment -->', ''].join('\n'));
    expect(atEnd).toEqual([
      { line: 1, message: expect.stringContaining('block with no') },
      { line: 4, message: 'a marker not followed by a code block' },
    ]);
    const { problems: unclosed } = findDocCodeBlocks(['<!-- fragment -->', '````md', '```', 'still inside'].join('\n'));
    expect(unclosed).toEqual([{ line: 2, message: 'a code block that is never closed' }]);
  });
});
