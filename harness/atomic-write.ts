import { randomUUID } from 'node:crypto';
import { link, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Publishes `text` at `target` all at once: written and synced to a temp file in the same
 * directory, then moved into place, so a reader or a crash never sees half a file.
 * With `replace: false` the move is a hard link, which fails with EEXIST instead of
 * clobbering a file another writer published first.
 */
export async function writeFileAtomically(
  target: string,
  text: string,
  options: { readonly replace: boolean },
): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomUUID()}.tmp`);
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    if (options.replace) await rename(temp, target);
    else await link(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}
