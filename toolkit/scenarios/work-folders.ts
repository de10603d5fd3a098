import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Work folders of scenario runs in progress in this process: a signal handler removes them on the way out. */
const live = new Set<string>();

/** A private temporary folder for one scenario run (sessions root, workspace, children's outbox). */
export async function makeWorkFolder(scenario: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `nestcast-${scenario}-`));
  live.add(dir);
  return dir;
}

export async function removeWorkFolder(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  live.delete(dir);
}

/** Synchronous, for a signal handler: the process exits right after. */
export function removeLiveWorkFoldersSync(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}
