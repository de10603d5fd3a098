import { readdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { getFileInfo } from 'prettier';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const ignorePath = [join(root, '.gitignore'), join(root, '.prettierignore')];

/** Recorded and fixture data: replayed, compared and fingerprinted byte for byte. */
const DATA_FILE = /\.(json|jsonl|ndjson|har)$/;
/** Configuration, not test data: formatted like code (the ecosystem project has its own manifest). */
const CONFIG_FILES = new Set([
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  '.prettierrc.json',
  'test/ecosystem/package.json',
]);

async function repositoryFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.git', 'coverage'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await repositoryFiles(path)));
    else if (entry.isFile()) files.push(relative(root, path));
  }
  return files;
}

async function formatted(file: string): Promise<boolean> {
  return !(await getFileInfo(join(root, file), { ignorePath })).ignored;
}

describe('npm run format', () => {
  test('never rewrites a recording or fixture: every data file outside the configuration is prettier-ignored', async () => {
    const data = (await repositoryFiles(root)).filter((file) => DATA_FILE.test(file) && !CONFIG_FILES.has(file));
    expect(data.some((file) => file.startsWith('recordings/'))).toBe(true);
    const rewritten: string[] = [];
    for (const file of data) if (await formatted(file)) rewritten.push(file);
    expect(rewritten, 'add the folder to .prettierignore: its bytes are test data').toEqual([]);
  });

  test('formats the source, the scripts and the docs', async () => {
    for (const file of [
      'toolkit/index.ts',
      'docs/examples/worker-provider.fuzz.mjs',
      'docs/architecture.md',
      'package.json',
    ]) {
      expect(await formatted(file), file).toBe(true);
    }
  });
});
