import { randomUUID } from 'node:crypto';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { recoverInterruptedSwaps } from './recover-swaps.js';
import { fileError } from './file-error.js';
import { lockRecording } from './recording-lock.js';
import { refuseLinks } from './refuse-links.js';
import { ensureStagingDir } from './staging.js';
import { journalFile as journalFileOf, writeSwapJournal, type SwapJournal } from './swap-journal.js';

export type { SwapJournal } from './swap-journal.js';

/**
 * Replaces the folder `target` whole or not at all: a copy of it (or an empty folder) is built
 * into by `build` in the staging folder, then swapped in by rename. A crash before the swap
 * leaves `target` as it was; a crash during it leaves a journal that `recoverInterruptedSwaps`
 * (run first, by every save and every scenario run) completes. `build` throwing writes nothing.
 * The writer's lock of `target` is held throughout (RECORDING_LOCKED while another process holds it).
 */
export async function replaceFolder(target: string, build: (dir: string) => Promise<void>): Promise<void> {
  const lock = lockRecording(target);
  try {
    await replaceLocked(target, build);
  } catch (error) {
    // A path in the staged copy is shown as the recording's own: that is the file the user knows.
    throw fileError(error, target, 'write', (path) =>
      path.replace(/\.nestcast-staging\/[^/]+\.(?:next|old)(?=\/|$)/, basename(target)),
    );
  } finally {
    lock.release();
  }
}

async function replaceLocked(target: string, build: (dir: string) => Promise<void>): Promise<void> {
  recoverInterruptedSwaps(target);
  const staging = ensureStagingDir(target);
  const id = `${basename(target)}.${process.pid}.${randomUUID()}`;
  const journal: SwapJournal = { target, next: join(staging, `${id}.next`), old: join(staging, `${id}.old`) };
  const journalFile = journalFileOf(staging, id);
  try {
    // A copy, so files the new recording leaves as they were keep their bytes.
    await cp(target, journal.next, { recursive: true, errorOnExist: true, force: false }).catch(
      async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(journal.next, { recursive: true });
      },
    );
    // The copy, not the folder: a link made after a look at the folder would be in it all the same.
    refuseLinks(journal.next, target);
    await build(journal.next);
  } catch (error) {
    await rm(journal.next, { recursive: true, force: true });
    recoverInterruptedSwaps(target);
    throw error;
  }
  await writeSwapJournal(journalFile, journal);
  let hadOld = true;
  await rename(target, journal.old).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    hadOld = false;
  });
  await rename(journal.next, target);
  await rm(journalFile, { force: true });
  if (hadOld) await rm(journal.old, { recursive: true, force: true });
  // Leaves no empty staging folder behind.
  recoverInterruptedSwaps(target);
}
