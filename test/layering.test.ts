import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/** What each layer may import from the repository: the layers before it, never after. */
const allowed: Record<string, readonly string[]> = {
  harness: ['harness'],
  providers: ['harness', 'providers'],
};

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|mts)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Every relative module specifier of a file: static imports and exports, and dynamic `import()`. */
function relativeSpecifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) found.push(match[1] as string);
  return found;
}

describe('layering', () => {
  for (const [layer, layers] of Object.entries(allowed)) {
    test(`${layer}/ source imports only ${layers.join(' and ')}/`, async () => {
      const offending: string[] = [];
      for (const file of await sourceFiles(layer)) {
        const text = await readFile(join(root, file), 'utf8');
        for (const specifier of relativeSpecifiers(text)) {
          const target = relative(root, resolve(root, dirname(file), specifier));
          const top = target.split('/')[0] as string;
          if (!layers.includes(top)) offending.push(`${file} imports ${specifier} (${top}/)`);
        }
      }
      expect(offending).toEqual([]);
    });
  }

  test('the check sees a forbidden import when there is one', () => {
    expect(relativeSpecifiers(`import { x } from '../../toolkit/cassette/index.js';\nconst m = await import('../toolkit/a.js');`)).toEqual([
      '../../toolkit/cassette/index.js',
      '../toolkit/a.js',
    ]);
  });
});
