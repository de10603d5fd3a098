import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CassetteError } from '../errors/cassette-error.js';
import { fileError } from './file-error.js';
import { ensureStagingDir, isAlive, removeEmptyStaging, stagingDirOf } from './staging.js';

/** Who holds a recording's lock, as its lock file says. */
export interface LockHolder {
  readonly pid: number;
  /** The command line of the holder, as `ps` would show it. */
  readonly command: string;
  /** ISO time the lock was taken. */
  readonly since: string;
}

export interface RecordingLock {
  /** Gives the lock up (the last of this process's holds removes the file). Safe to call twice. */
  release(): void;
  /** The holder of a lock left by a process that no longer runs, which this one took over. */
  readonly tookOver?: LockHolder;
}

export const LOCK_SUFFIX = '.lock';

/** `recordings/.nestcast-staging/<name>.lock`: beside the folder it guards, which swaps replace whole. */
export function lockFileOf(target: string): string {
  return join(stagingDirOf(target), `${basename(target)}${LOCK_SUFFIX}`);
}

/** Locks held by this process, with how many holds each: a save inside a run that holds it holds it again. */
const held = new Map<string, number>();

/**
 * Takes the writer's lock of the recording folder `target` for this process: one writer at a time,
 * so two records of one recording never interleave their saves (the last would silently win).
 * A lock held by a live process is RECORDING_LOCKED, naming it; one left by a process that died
 * is taken over (`tookOver`). Synchronous, so the signal handler's cleanup can run beside it.
 */
export function lockRecording(target: string): RecordingLock {
  const file = lockFileOf(target);
  const holds = held.get(file);
  if (holds !== undefined) {
    held.set(file, holds + 1);
    return { release: once(() => releaseHold(file, target)) };
  }
  const mine: LockHolder = { pid: process.pid, command: process.argv.join(' '), since: new Date().toISOString() };
  const text = `${JSON.stringify(mine)}\n`;
  let tookOver: LockHolder | undefined;
  // A run that fails writes nothing, not even the recordings folder the lock had to be made in.
  let made: string | undefined;
  try {
    made = mkdirSync(dirname(target), { recursive: true });
  } catch (error) {
    throw fileError(error, dirname(target), 'write');
  }
  for (let attempt = 1; ; attempt++) {
    const created = createWithText(target, file, text);
    if (created === 'created') break;
    // The staging folder was removed by a writer that finished in between: make it again.
    if (created === 'no folder' && attempt < 20) continue;
    const found = readOptional(file);
    if (found === undefined && attempt < 20) continue;
    const holder = parseHolder(found ?? '');
    if (holder !== undefined && isAlive(holder.pid)) throw locked(target, file, holder);
    if (holder === undefined && attempt < 20) continue;
    // Its holder is gone: the lock is stale. Removed only if it is still the one read.
    if (readOptional(file) === found) rmSync(file, { force: true });
    tookOver = holder ?? { pid: 0, command: '(unreadable lock file)', since: '?' };
  }
  held.set(file, 1);
  const release = once(() => {
    releaseHold(file, target);
    if (made !== undefined) removeEmptyUpTo(dirname(target), made);
  });
  return { release, ...(tookOver === undefined ? {} : { tookOver }) };
}

/** How a stale lock taken over is told to the user. */
export function tookOverSentence(target: string, holder: LockHolder): string {
  return `took over the lock of ${target} left by process ${holder.pid} (${holder.command}, since ${holder.since}), which no longer runs`;
}

/** The holder a lock file names, or `undefined` for one that is not a lock (damaged, or being written). */
export function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    const { pid, command, since } = value;
    return Number.isInteger(pid) && typeof command === 'string' && typeof since === 'string'
      ? { pid: pid as number, command, since }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole to a temp file, then linked into place: a reader never sees half a lock, and a link fails if one is there. */
function createWithText(target: string, file: string, text: string): 'created' | 'exists' | 'no folder' {
  let temp: string;
  try {
    const staging = ensureStagingDir(target);
    temp = join(staging, `.${basename(file)}.${process.pid}.${randomUUID()}.tmp`);
    writeFileSync(temp, text, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'no folder';
    throw fileError(error, file, 'write');
  }
  try {
    linkSync(temp, file);
    return 'created';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return 'exists';
    if (code === 'ENOENT') return 'no folder';
    throw fileError(error, file, 'write');
  } finally {
    rmSync(temp, { force: true });
  }
}

function releaseHold(file: string, target: string): void {
  const holds = held.get(file) ?? 0;
  if (holds > 1) {
    held.set(file, holds - 1);
    return;
  }
  held.delete(file);
  if (parseHolder(readOptional(file) ?? '')?.pid === process.pid) rmSync(file, { force: true });
  removeEmptyStaging(target);
}

/** Removes `folder` and its parents up to `top` while they are empty. */
function removeEmptyUpTo(folder: string, top: string): void {
  for (let dir = folder; ; dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
    if (dir === top) return;
  }
}

function locked(target: string, file: string, holder: LockHolder): CassetteError {
  return new CassetteError(
    'RECORDING_LOCKED',
    `${target} is being written by process ${holder.pid} (${holder.command}), since ${holder.since}; two writers of one recording would overwrite each other, so nothing was done. ` +
      `Wait for it to finish, or stop it, then run the command again; if no such process runs nestcast, delete ${file}.`,
  );
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}
