import { installNetworkGuard, type NetworkGuard } from '../guard/network-guard.js';
import { scrubKeyLikeEnv } from '../guard/scrub-key-env.js';
import { reusingWorkFolders } from '../scenarios/work-folders.js';
import { cleanExitOnSignal } from './clean-exit-on-signal.js';

/**
 * Runs `work` keyless: key-like variables removed and the network guard armed before the first
 * scenario module loads, here and in the workers started with this environment (a client built at
 * import finds no key, and what it sends is caught), and Ctrl-C leaving `recordingTargets` whole.
 * Its scenario runs reuse their work folders (emptied, renamed) instead of removing each one, and
 * make them in `workFoldersIn` when given.
 * Everything is put back, and every work folder removed, when `work` settles.
 */
export async function runKeyless<T>(
  recordingTargets: () => readonly string[],
  work: (guard: NetworkGuard) => Promise<T>,
  options: { workFoldersIn?: string } = {},
): Promise<T> {
  const restoreEnv = scrubKeyLikeEnv(process.env);
  const guard = installNetworkGuard();
  try {
    return await runWithCleanExit(recordingTargets, () => work(guard), options);
  } finally {
    guard.close();
    restoreEnv();
  }
}

/**
 * `runKeyless` without dropping the keys or arming the guard, for the workers of `nestcast
 * record` (a recording against an API needs its key and reaches it): Ctrl-C leaves
 * `recordingTargets` whole, and the work folders are reused, made in `workFoldersIn` when given.
 */
export async function runWithCleanExit<T>(
  recordingTargets: () => readonly string[],
  work: () => Promise<T>,
  options: { workFoldersIn?: string } = {},
): Promise<T> {
  const uninstallSignals = cleanExitOnSignal(recordingTargets);
  try {
    return await reusingWorkFolders(work, { in: options.workFoldersIn });
  } finally {
    uninstallSignals();
  }
}
