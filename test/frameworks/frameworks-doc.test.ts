import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';

/** Every code block of docs/frameworks.md is code a test runs: word for word, but for the import path. */
describe('docs/frameworks.md', () => {
  test('each recipe is the code of a test in test/frameworks/, as written', async () => {
    const doc = await readFile('docs/frameworks.md', 'utf8');
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) =>
      (match[1] as string).replace("'nestcast/toolkit'", "'../../toolkit/index.js'"),
    );
    const sources = await Promise.all(
      [
        'recipe',
        'openai-agents',
        'openai-agents-responses',
        'ai-sdk',
        'langchain',
        'openai-loop',
        'anthropic-sdk',
        'google-genai',
        'ai-sdk-anthropic',
      ].map((name) => readFile(`test/frameworks/${name}.test.ts`, 'utf8')),
    );
    expect(blocks).toHaveLength(10);
    for (const block of blocks) {
      const code = block
        .split('\n')
        .filter((line) => !line.startsWith('// createRecordingFetch('))
        .join('\n')
        .trim();
      expect(
        sources.some((source) => source.includes(code)),
        `not found in any test: ${code.slice(0, 80)}…`,
      ).toBe(true);
    }
  });
});
