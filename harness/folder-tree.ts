import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/**
 * Every entry under `dir`, at any depth, each with its `parentPath`; a symbolic link is listed as
 * itself and never followed. `readdirSync(dir, { recursive: true })` follows links to folders on
 * Node 22 and later (not on 20): through a link it would list, read or delete what lies outside
 * `dir`, and a link to an ancestor makes it walk until the path is too long. Folders come before
 * what they hold.
 */
export function folderTree(dir: string): Dirent[] {
  const entries: Dirent[] = [];
  const visit = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      entries.push(entry);
      if (entry.isDirectory()) visit(join(folder, entry.name));
    }
  };
  visit(dir);
  return entries;
}
