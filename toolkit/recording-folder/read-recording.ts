import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { folderTree } from '../../harness/folder-tree.js';
import { CassetteError } from '../errors/cassette-error.js';
import { fileError } from './file-error.js';
import { kindOf, readRegularFileSync } from './read-regular-file.js';
import { recordingLink } from './refuse-links.js';
import { stagingDirOf } from './staging.js';
import { JOURNAL_SUFFIX } from './swap-journal.js';

/** One version of a recording folder, read whole: every reader of a run reads this, never the folder again. */
export interface RecordingFiles {
  /** The recording folder, as messages name it. */
  readonly dir: string;
  /** Whether the folder existed. */
  readonly exists: boolean;
  /** The text of the file at `path` (absolute, inside `dir`), or `undefined` when the version has none. */
  read(path: string): string | undefined;
  /** Whether `path` (absolute, inside `dir`) is a file or folder of the version. */
  has(path: string): boolean;
  /** The files under the folder `path`, absolute, sorted. */
  list(path: string): string[];
  /** Writes the version into the empty folder `to` (for a child process that reads a folder itself). */
  copyTo(to: string): void;
}

/** How many times a read that saw a swap happen is tried again before giving up. */
const ATTEMPTS = 200;

/**
 * Reads every file of the recording folder `dir` as one version. A save replaces the folder whole
 * by two renames (see replaceFolder), never writing inside it, so a folder with the same identity
 * (device, inode, change time) before and after the read was one version throughout; a read that
 * saw the identity change, the folder vanish mid-read, or the folder missing while a swap of it is
 * journaled is read again. Links are refused (RECORDING_LINK) and so is anything that is not a
 * file or folder, which could block a read (a FIFO, a device).
 */
export function readRecording(dir: string): RecordingFiles {
  for (let attempt = 1; ; attempt++) {
    const read = readOnce(dir);
    if (read !== 'moved') return read;
    if (attempt >= ATTEMPTS) {
      throw new CassetteError(
        'CASSETTE_INVALID',
        `${dir} was replaced ${ATTEMPTS} times while it was being read, so no one version of it could be read. Stop whatever keeps re-recording it, then run the command again.`,
      );
    }
    pause(Math.min(attempt, 20));
  }
}

function readOnce(dir: string): RecordingFiles | 'moved' {
  const before = identity(dir);
  if (before === undefined) {
    // Missing: mid-swap if journaled, or if a swap ended (journal gone, folder back) while we looked.
    if (swapJournaled(dir) || identity(dir) !== undefined) return 'moved';
    return snapshot(dir, false, new Map(), new Set());
  }
  const files = new Map<string, string>();
  const folders = new Set<string>(['']);
  try {
    for (const entry of folderTree(dir)) {
      const path = join(entry.parentPath, entry.name);
      const key = keyOf(dir, path);
      if (entry.isSymbolicLink()) throw recordingLink(path, readlinkSync(path), { folderItself: false });
      if (entry.isDirectory()) folders.add(key);
      else if (entry.isFile()) files.set(key, readText(path));
      else throw notAFile(path, kindOf(lstatSync(path)));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'moved';
    throw fileError(error, dir, 'read');
  }
  return identity(dir) === before ? snapshot(dir, true, files, folders) : 'moved';
}

function snapshot(dir: string, exists: boolean, files: Map<string, string>, folders: Set<string>): RecordingFiles {
  return {
    dir,
    exists,
    read(path) {
      const key = keyOf(dir, path);
      if (folders.has(key)) throw fileError(errno('EISDIR', path), path, 'read');
      if (ancestors(key).some((folder) => files.has(folder))) throw fileError(errno('ENOTDIR', path), path, 'read');
      return files.get(key);
    },
    has: (path) => files.has(keyOf(dir, path)) || folders.has(keyOf(dir, path)),
    list(path) {
      const prefix = keyOf(dir, path);
      return [...files.keys()]
        .filter((key) => prefix === '' || key.startsWith(`${prefix}/`))
        .sort()
        .map((key) => join(dir, ...key.split('/')));
    },
    copyTo(to) {
      for (const [key, text] of files) {
        const path = join(to, ...key.split('/'));
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
      }
    },
  };
}

/** `a/b/c` → `a`, `a/b`. */
function ancestors(key: string): string[] {
  const parts = key.split('/');
  return parts.slice(1).map((_, index) => parts.slice(0, index + 1).join('/'));
}

/** The error the file system would have given, for a file read from a version already in memory. */
function errno(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${path}`), { code, path });
}

/** `/`-separated, relative to the recording folder. */
function keyOf(dir: string, path: string): string {
  return relative(dir, path).split(sep).join('/');
}

function identity(dir: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fileError(error, dir, 'read');
  }
  if (stat.isSymbolicLink()) throw recordingLink(dir, readlinkSync(dir), { folderItself: true });
  if (!stat.isDirectory()) throw fileError(errno('ENOTDIR', dir), dir, 'read');
  return `${stat.dev}:${stat.ino}:${stat.ctimeMs}:${stat.birthtimeMs}`;
}

/** Whether a swap of `dir` is under way: its journal exists from before the first rename until after the second. */
function swapJournaled(dir: string): boolean {
  const staging = stagingDirOf(dir);
  if (!existsSync(staging)) return false;
  const name = `${basename(dir)}.`;
  return readdirSync(staging).some((entry) => entry.startsWith(name) && entry.endsWith(JOURNAL_SUFFIX));
}

function readText(path: string): string {
  try {
    // Checked again on the open file: a FIFO or device swapped in after the listing must not block the read.
    const text = readRegularFileSync(path, (kind) => notAFile(path, kind));
    if (text === undefined) throw errno('ENOENT', path);
    return text;
  } catch (error) {
    if (error instanceof CassetteError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
    throw fileError(error, path, 'read');
  }
}

function notAFile(path: string, kind: string): CassetteError {
  return new CassetteError(
    'CASSETTE_INVALID',
    `Invalid cassette: ${path} is ${kind}, not a regular file, and reading it could block the run. A recording holds only files and folders: delete it, or re-record.`,
  );
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** A synchronous wait of `ms`: the swap being waited for takes two renames. */
function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
