import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docCodeBlockProblems, findDocCodeBlocks } from './support/doc-code-blocks.js';

const REPO = resolve(import.meta.dirname, '..');

/** docs/api.md is generated whole from the types and checked whole by test/api-doc.test.ts. */
const GENERATED = new Set(['docs/api.md']);

async function docFiles(): Promise<string[]> {
  const docs = (await readdir(join(REPO, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  return ['README.md', ...docs.filter((file) => !GENERATED.has(file)).sort()];
}

function testSource(test: string): string | undefined {
  const path = join(REPO, test);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

describe('the code blocks of README.md and docs/', () => {
  it('each run in a docs test or are marked as a fragment', async () => {
    const files = await docFiles();
    expect(files).toContain('docs/scenarios.md');
    const problems: string[] = [];
    for (const file of files)
      problems.push(...docCodeBlockProblems(file, await readFile(join(REPO, file), 'utf8'), testSource));
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

describe('docCodeBlockProblems', () => {
  const doc = [
    '<!-- runs: test/reads-it.test.ts -->',
    '```ts',
    '```',
    '<!-- runs: test/elsewhere.test.ts -->',
    '```ts',
    '```',
    '<!-- runs: test/gone.test.ts -->',
    '```sh',
    '```',
    '```',
    '```',
  ].join('\n');
  const tests: Record<string, string> = {
    'test/reads-it.test.ts': "await readFile('docs/guide.md', 'utf8')",
    'test/elsewhere.test.ts': "await readFile('docs/other.md', 'utf8')",
  };

  it('names file:line for a runs marker whose test is missing or never names the doc, and for a block with no marker', () => {
    expect(docCodeBlockProblems('docs/guide.md', doc, (test) => tests[test])).toEqual([
      expect.stringMatching(/^docs\/guide\.md:10: a ``` block with no/),
      'docs/guide.md:4: runs: test/elsewhere.test.ts, which never names guide.md, so it cannot read it',
      'docs/guide.md:7: runs: test/gone.test.ts, which does not exist',
    ]);
  });
});
