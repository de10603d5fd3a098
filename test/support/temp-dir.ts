import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh, empty directory under the OS temp dir, e.g. `makeTempDir('sessions-')`. */
export async function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `nestcast-${prefix}`));
}

/** Removes a directory made by `makeTempDir`, with everything in it; a missing one is fine. */
export async function removeTempDir(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true, maxRetries: 3 });
}
