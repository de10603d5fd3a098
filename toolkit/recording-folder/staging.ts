import { lstatSync, mkdirSync, readdirSync, readlinkSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { recordingLink } from './refuse-links.js';

/**
 * Where a recording folder is built before it is swapped in: `recordings/.nestcast-staging/`,
 * beside the folders it replaces (same file system, so a rename moves it), with a `.gitignore`
 * of `*` so git never picks up anything in it, whatever a crash leaves there.
 */
export const STAGING_DIR = '.nestcast-staging';

export function stagingDirOf(target: string): string {
  return join(dirname(target), STAGING_DIR);
}

export function ensureStagingDir(target: string): string {
  const staging = stagingDirOf(target);
  mkdirSync(staging, { recursive: true });
  // Built in there, then renamed: through a link it would be built elsewhere, or fail half-way.
  if (lstatSync(staging).isSymbolicLink()) throw recordingLink(staging, readlinkSync(staging), { folderItself: false });
  writeFileSync(join(staging, '.gitignore'), '*\n');
  return staging;
}

/**
 * Removes the staging folder beside `target` when nothing but its `.gitignore` is left. Never
 * recursively: a writer that starts meanwhile (its lock, its copy) keeps it, and gets its
 * `.gitignore` back.
 */
export function removeEmptyStaging(target: string): void {
  const staging = stagingDirOf(target);
  let left: string[];
  try {
    left = readdirSync(staging).filter((name) => name !== '.gitignore');
  } catch {
    return;
  }
  if (left.length > 0) return;
  rmSync(join(staging, '.gitignore'), { force: true });
  try {
    rmdirSync(staging);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') writeFileSync(join(staging, '.gitignore'), '*\n');
    else if (code !== 'ENOENT') throw error;
  }
}

/** `<name>.<pid>.<random>`: whose it is, so recovery leaves a live process's staging alone. */
export function ownerPid(entry: string): number | undefined {
  // Ours (`<name>.<pid>.<uuid>.next|old|swap.json`), or an atomic write's temp file of a journal (`.<file>.<pid>.<uuid>.tmp`).
  const match = /^.+\.(\d+)\.[0-9a-f-]{36}\.(?:next|old|swap\.json|tmp)$/.exec(entry);
  const pid = Number(match?.[1]);
  return match && Number.isInteger(pid) ? pid : undefined;
}

export function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
