import type { NetworkGuard } from '../guard/network-guard.js';
import { scrubKeyLikeEnv } from '../guard/scrub-key-env.js';
import { runWithCleanExit } from './clean-exit-run.js';

/**
 * Runs `work` keyless, as a worker of `nestcast run` does: key-like variables removed and the
 * network guard armed before the first scenario module loads (a client built at import finds no
 * key, and what it sends is caught), and Ctrl-C leaving `recordingTargets` whole.
 * Its scenario runs reuse their work folders (emptied, renamed) instead of removing each one, and
 * make them in `workFoldersIn` when given.
 * Everything is put back, and every work folder removed, when `work` settles.
 */
export async function runKeyless<T>(
  recordingTargets: () => readonly string[],
  work: (guard: NetworkGuard) => Promise<T>,
  options: { workFoldersIn?: string } = {},
): Promise<T> {
  // Loaded here, not with this module: a worker of `nestcast record` arms no guard, and msw is
  // about 0.3 s of CPU to load.
  const { installNetworkGuard } = await import('../guard/network-guard.js');
  const restoreEnv = scrubKeyLikeEnv(process.env);
  const guard = installNetworkGuard();
  try {
    return await runWithCleanExit(recordingTargets, () => work(guard), options);
  } finally {
    guard.close();
    restoreEnv();
  }
}
