import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { folderTree } from '../../harness/folder-tree.js';

/** A fresh, empty directory under the OS temp dir, e.g. `makeTempDir('sessions-')`. */
export async function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `nestcast-${prefix}`));
}

/** Removes a directory made by `makeTempDir`, with everything in it; a missing one is fine. */
export async function removeTempDir(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true, maxRetries: 3 });
}

/** Every file under `dir`, relative and sorted; links are not followed (a project's linked node_modules is not its files). */
export async function listFiles(dir: string): Promise<string[]> {
  return folderTree(dir)
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** Every file under `dir` with its text, by relative path: what a program left in its scratch folder. */
export async function readFiles(dir: string): Promise<Record<string, string>> {
  const files = await listFiles(dir);
  const contents = await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')));
  return Object.fromEntries(files.map((file, i) => [file, contents[i] ?? '']));
}
