import { existsSync, lstatSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LOCK_SUFFIX, parseHolder } from './recording-lock.js';
import { isAlive, ownerPid, removeEmptyStaging, stagingDirOf } from './staging.js';
import { JOURNAL_SUFFIX, readSwapJournal } from './swap-journal.js';

/**
 * Finishes or undoes what a killed save left in the staging folder beside `target`: a swap that
 * had started is completed (the new folder was whole before its journal was written), a build
 * that had not is thrown away. Only entries of processes no longer alive are touched; `own`
 * also takes this process's (its signal handler, on the way out). Synchronous so it can run
 * there. Returns what it repaired, as sentences.
 */
export function recoverInterruptedSwaps(target: string, options: { readonly own?: boolean } = {}): string[] {
  const staging = stagingDirOf(target);
  let entries: string[];
  try {
    // Never through a link: what it leads to is not ours to delete (a save refuses it: RECORDING_LINK).
    if (lstatSync(staging).isSymbolicLink()) return [];
    entries = readdirSync(staging);
  } catch {
    return [];
  }
  const repaired: string[] = [];
  const abandoned = (entry: string) => {
    const pid = ownerPid(entry);
    return pid !== undefined && (options.own === true && pid === process.pid ? true : !isAlive(pid));
  };
  for (const entry of entries.filter((name) => name.endsWith(JOURNAL_SUFFIX) && abandoned(name))) {
    const file = join(staging, entry);
    const journal = readSwapJournal(file);
    if (!existsSync(journal.target)) {
      if (existsSync(journal.next)) renameSync(journal.next, journal.target);
      else if (existsSync(journal.old)) renameSync(journal.old, journal.target);
      repaired.push(`completed the interrupted replacement of ${journal.target}`);
    }
    rmSync(file, { force: true });
  }
  for (const entry of readdirSync(staging).filter((name) => !name.endsWith(JOURNAL_SUFFIX) && abandoned(name))) {
    rmSync(join(staging, entry), { recursive: true, force: true });
  }
  for (const entry of readdirSync(staging).filter((name) => name.endsWith(LOCK_SUFFIX))) {
    const file = join(staging, entry);
    const text = readOptional(file);
    const holder = parseHolder(text ?? '');
    const gone =
      holder !== undefined && (options.own === true && holder.pid === process.pid ? true : !isAlive(holder.pid));
    if (!gone || readOptional(file) !== text) continue;
    rmSync(file, { force: true });
    repaired.push(
      `removed the lock of ${join(dirname(staging), entry.slice(0, -LOCK_SUFFIX.length))} left by process ${holder.pid} (${holder.command}, since ${holder.since}), which no longer runs`,
    );
  }
  removeEmptyStaging(target);
  return repaired;
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
