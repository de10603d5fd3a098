import { mkdtempSync, readdirSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Work folders of scenario runs in progress in this process: a signal handler removes them on the way out. */
const live = new Set<string>();

// Synchronous on purpose: a handful of calls on a small folder, where each thread-pool round trip
// of the asynchronous ones costs more than the call (a scenario run does these once each).

/** A private temporary folder for one scenario run (sessions root, workspace, children's outbox). */
export async function makeWorkFolder(scenario: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `nestcast-${scenario}-`));
  live.add(dir);
  return dir;
}

export async function removeWorkFolder(dir: string): Promise<void> {
  try {
    removeTree(dir);
  } catch {
    // Whatever the walk could not remove (a folder that changed under it, a busy file): Node's own, with retries.
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
  live.delete(dir);
}

/**
 * Children first, then the folder: Node's recursive `rmSync` tries `rmdir` on every folder
 * before emptying it, and each failing call costs as much as a successful one (150–250 µs on ext4).
 */
function removeTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removeTree(path);
    else unlinkSync(path);
  }
  rmdirSync(dir);
}

/** Synchronous, for a signal handler: the process exits right after. */
export function removeLiveWorkFoldersSync(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}
