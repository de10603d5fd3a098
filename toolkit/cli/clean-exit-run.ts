import { scrubKeyLikeEnv } from '../guard/scrub-key-env.js';
import { reusingWorkFolders } from '../scenarios/work-folders.js';
import { cleanExitOnSignal } from './clean-exit-on-signal.js';

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

/**
 * `nestcast run`'s own process: key-like variables removed, so the workers it starts with this
 * environment find none, and Ctrl-C leaving `recordingTargets` whole. No network guard: no
 * scenario code runs in this process (every scenario runs in a worker, which arms its own, see
 * `runKeyless`), and msw is a third of what this process would load.
 */
export async function runWithoutKeys<T>(
  recordingTargets: () => readonly string[],
  work: () => Promise<T>,
  options: { workFoldersIn?: string } = {},
): Promise<T> {
  const restoreEnv = scrubKeyLikeEnv(process.env);
  try {
    return await runWithCleanExit(recordingTargets, work, options);
  } finally {
    restoreEnv();
  }
}
