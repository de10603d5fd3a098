import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
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
  const temp = tempPathFor(target);
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

/**
 * Publishes `text` at `target` whole, as `writeFileAtomically` does, but never syncs it to disk
 * and uses synchronous calls: for scratch files that live no longer than the process needs them
 * (a scenario's work folder, removed after the run), where a sync and a thread-pool round trip
 * per step cost more than the write.
 */
export function publishScratchFileSync(target: string, text: string, options: { readonly replace: boolean }): void {
  const temp = tempPathFor(target);
  const fd = openSync(temp, 'wx');
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written);
  } finally {
    closeSync(fd);
  }
  try {
    if (options.replace) renameSync(temp, target);
    else linkSync(temp, target);
  } finally {
    rmSync(temp, { force: true });
  }
}

function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomUUID()}.tmp`);
}
