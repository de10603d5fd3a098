import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { format } from 'prettier';
import { describe, expect, it } from 'vitest';
import { firstSentence, renderApiDoc } from './support/api-doc.js';

const REPO = resolve(import.meta.dirname, '..');

describe('docs/api.md', () => {
  it('is what `npm run docs:api` writes from the subpath roots and their types: regenerate it after changing an export or its doc comment', async () => {
    const file = join(REPO, 'docs', 'api.md');
    const generated = await format(renderApiDoc(REPO), { filepath: file });
    expect(await readFile(file, 'utf8')).toBe(generated);
  }, 300_000);

  it('gives each name the first sentence of its doc comment, a full stop inside a code span or a name not ending it', () => {
    expect(firstSentence('Loads `a.b` from disk. Then more.')).toBe('Loads `a.b` from disk.');
    expect(firstSentence('Reads e.g.the file.\n\nSecond paragraph.')).toBe('Reads e.g.the file.');
    expect(firstSentence('One line\nwrapped here. Next.')).toBe('One line wrapped here.');
    expect(firstSentence('')).toBe('');
  });
});
