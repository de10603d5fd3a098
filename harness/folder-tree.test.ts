import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { folderTree } from './folder-tree.js';

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

test('a folder tree lists files at every depth and a link as itself, never what it leads to, a link to an ancestor included', () => {
  root = mkdtempSync(join(tmpdir(), 'nestcast-folder-tree-'));
  const outside = join(root, 'outside');
  mkdirSync(join(outside, 'deeper'), { recursive: true });
  writeFileSync(join(outside, 'deeper', 'theirs.jsonl'), '{}\n');
  const dir = join(root, 'recording');
  mkdirSync(join(dir, 'transcripts', 'main'), { recursive: true });
  writeFileSync(join(dir, 'meta.json'), '{}\n');
  writeFileSync(join(dir, 'transcripts', 'main', 'main.jsonl'), '{}\n');
  symlinkSync(outside, join(dir, 'calls'), 'dir');
  symlinkSync(dir, join(dir, 'transcripts', 'up'), 'dir');

  const listed = folderTree(dir).map((entry) => {
    const kind = entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'folder' : 'file';
    return `${kind} ${relative(dir, join(entry.parentPath, entry.name))}`;
  });

  expect(listed.sort()).toEqual([
    'file meta.json',
    'file transcripts/main/main.jsonl',
    'folder transcripts',
    'folder transcripts/main',
    'link calls',
    'link transcripts/up',
  ]);
});
