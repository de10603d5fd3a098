import { readFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { docSnippet } from '../support/doc-snippet.js';
import { startModelServer } from '../../toolkit/index.js';

test('the Python agent answers as recorded', async () => {
  const server = await startModelServer({ recording: 'test/serve/fixtures/python-loop' });
  const run = await promisify(execFile)('python3', ['test/serve/fixtures/python_tool_loop.py'], {
    env: { PATH: process.env.PATH, ...server.env },
  });
  expect(run.stdout).toBe('child said: Sales rose 4% in Q3.\nparent said: The report says sales rose.\n');
  const summary = await server.close();
  expect(summary.problems).toEqual([]);
});

test('docs/serve.md shows this file as its library recipe, importing nestcast/toolkit', async () => {
  const shown = await docSnippet('docs/serve.md', 'test/serve/serve-recipe.test.ts');
  const file = await readFile('test/serve/serve-recipe.test.ts', 'utf8');
  const [recipe] = file.split("\ntest('docs/serve.md shows");
  expect(
    recipe
      ?.replace("from '../../toolkit/index.js';", "from 'nestcast/toolkit';")
      .replace("import { docSnippet } from '../support/doc-snippet.js';\n", '')
      .replace("import { readFile } from 'node:fs/promises';\n", ''),
  ).toBe(shown);
});
