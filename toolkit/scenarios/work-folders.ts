import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** A private temporary folder for one scenario run; the outbox and other parts appear in it as needed. */
export interface WorkFolder {
  readonly dir: string;
  /** Where the runtime keeps its session logs. */
  readonly sessionsRoot: string;
  /** The main session's working directory. */
  readonly cwd: string;
}

/** The parts every work folder starts with, empty: kept (emptied) when a folder is reused. */
const SKELETON = ['sessions', 'workspace'] as const;

/** Work folders of scenario runs in progress in this process: a signal handler removes them on the way out. */
const live = new Set<string>();

/**
 * Emptied work folders waiting for the next scenario while a `reusingWorkFolders` scope is open;
 * undefined outside one. On ext4 each `rmdir` and `mkdir` of a run's three folders is a journaled
 * update (about 1 ms a run in all), where the two renames of a reuse cost about 0.06 ms.
 */
let spares: string[] | undefined;
/** Where work folders are made: the temp dir, or the folder a `reusingWorkFolders` scope was given. */
let root: string | undefined;
const folderRoot = (): string => root ?? tmpdir();

/**
 * Spares are `nestcast-spare.XXXXXX`: a name mkdtemp's `nestcast-<scenario>-XXXXXX` can never be
 * (a `-` always stands before its last six characters), whatever the scenario is called.
 */
const SPARE_PREFIX = 'nestcast-spare.';

// Synchronous on purpose: a handful of calls on a small folder, where each thread-pool round trip
// of the asynchronous ones costs more than the call (a scenario run does these once each).

/**
 * Makes the work folder of one run of `scenario`: `nestcast-<scenario>-XXXXXX` in the temp dir (or
 * in the scope's folder), with its skeleton. Inside a `reusingWorkFolders` scope it is a spare
 * renamed, when there is one.
 */
export async function makeWorkFolder(scenario: string): Promise<WorkFolder> {
  let dir = reuseSpare(scenario);
  if (dir === undefined) {
    dir = mkdtempSync(join(folderRoot(), `nestcast-${scenario}-`));
    for (const part of SKELETON) mkdirSync(join(dir, part));
  }
  live.add(dir);
  return { dir, sessionsRoot: join(dir, 'sessions'), cwd: join(dir, 'workspace') };
}

/**
 * Removes a work folder whole. Inside a `reusingWorkFolders` scope a `reusable` one (a run that
 * passed: whatever it started has ended) is instead renamed away, so whatever still writes to its
 * old path cannot reach the next run, then emptied and kept as a spare.
 */
export async function removeWorkFolder(dir: string, { reusable = true } = {}): Promise<void> {
  live.delete(dir);
  const spare = spares === undefined || !reusable ? undefined : join(folderRoot(), `${SPARE_PREFIX}${suffixOf(dir)}`);
  if (spare !== undefined && moveTo(dir, spare)) {
    try {
      emptyKeepingSkeleton(spare);
      spares?.push(spare);
    } catch {
      // A folder the reuse could not empty is removed as it would be outside a scope.
      removeFolder(spare);
    }
    return;
  }
  removeFolder(dir);
}

/**
 * Runs `work` with work folders reused between the scenario runs in it (the CLI's serial loop, a
 * worker's queue), made in `in` when given (a worker's folder, which its parent removes whatever
 * becomes of the worker); every spare is removed when it settles. A nested scope shares the outer one.
 */
export async function reusingWorkFolders<T>(work: () => Promise<T>, options: { in?: string } = {}): Promise<T> {
  if (spares !== undefined) return work();
  spares = [];
  root = options.in;
  try {
    return await work();
  } finally {
    const left = spares;
    spares = undefined;
    root = undefined;
    for (const spare of left) removeFolder(spare);
  }
}

/**
 * A folder for one worker process to make its work folders in (`reusingWorkFolders`'s `in`):
 * removed with `removeWorkerFolder` when the worker is gone, so a worker killed mid-run leaves
 * nothing behind; a signal to this process removes it with the live work folders.
 */
export function makeWorkerFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'nestcast-worker-'));
  live.add(dir);
  return dir;
}

export function removeWorkerFolder(dir: string): void {
  live.delete(dir);
  try {
    removeFolder(dir);
  } catch {
    // A child the killed worker left running may still write there: a leftover temp folder, not a wrong verdict.
  }
}

/** Synchronous, for a signal handler: the process exits right after. */
export function removeLiveWorkFoldersSync(): void {
  for (const dir of [...live, ...(spares ?? [])]) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // On the way out on a signal: one folder that will not go must not keep the others or the exit.
    }
  }
  live.clear();
  if (spares !== undefined) spares.length = 0;
}

function reuseSpare(scenario: string): string | undefined {
  for (let spare = spares?.pop(); spare !== undefined; spare = spares?.pop()) {
    const dir = join(folderRoot(), `nestcast-${scenario}-${suffixOf(spare)}`);
    if (moveTo(spare, dir)) return dir;
    removeFolder(spare);
  }
  return undefined;
}

/** Renames `from` to `to` unless `to` exists: rename(2) would replace an empty folder there. */
function moveTo(from: string, to: string): boolean {
  if (existsSync(to)) return false;
  try {
    renameSync(from, to);
    return true;
  } catch {
    return false;
  }
}

/** The random part mkdtemp gave the folder (its last six characters): unique among this machine's live work folders. */
function suffixOf(dir: string): string {
  return basename(dir).slice(-6);
}

function removeFolder(dir: string): void {
  try {
    removeTree(dir);
  } catch {
    // Whatever the walk could not remove (a folder that changed under it, a busy file): Node's own, with retries.
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Leaves `dir` as a fresh work folder is: its skeleton, empty (remade if the run removed a part), and nothing else. */
function emptyKeepingSkeleton(dir: string): void {
  const kept = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && (SKELETON as readonly string[]).includes(entry.name)) {
      emptyTree(path);
      kept.add(entry.name);
    } else if (entry.isDirectory()) removeTree(path);
    else unlinkSync(path);
  }
  for (const part of SKELETON) if (!kept.has(part)) mkdirSync(join(dir, part));
}

/**
 * Children first, then the folder: Node's recursive `rmSync` tries `rmdir` on every folder
 * before emptying it, and each failing call costs as much as a successful one (150–250 µs on ext4).
 * A link is removed, never followed.
 */
function removeTree(dir: string): void {
  emptyTree(dir);
  rmdirSync(dir);
}

function emptyTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removeTree(path);
    else unlinkSync(path);
  }
}
