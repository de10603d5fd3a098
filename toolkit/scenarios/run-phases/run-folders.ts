import { resolve } from 'node:path';
import { recoverInterruptedSwaps } from '../../recording-folder/recover-swaps.js';
import { checkScenarioName } from '../scenario-name.js';
import { makeWorkFolder, removeWorkFolder } from '../work-folders.js';

/** Where one scenario run lives: its recording folder, and a private work folder removed after it. */
export interface RunFolders {
  /** `<recordings>/<scenario>`, absolute: out-of-process children run in the scenario's workspace, not here. */
  readonly recordingDir: string;
  readonly workDir: string;
  readonly sessionsRoot: string;
  /** The main session's working directory. */
  readonly cwd: string;
  /** What was repaired before the run (an interrupted save completed, a dead writer's lock removed), as sentences. */
  readonly repaired: readonly string[];
}

export async function openRunFolders(scenario: string, recordingsDir = 'recordings'): Promise<RunFolders> {
  checkScenarioName(scenario, 'The scenario definition');
  const recordingDir = resolve(recordingsDir, scenario);
  // A save another run of this folder left half-done is finished first, so this run sees it whole.
  const repaired = recoverInterruptedSwaps(recordingDir);
  const { dir: workDir, sessionsRoot, cwd } = await makeWorkFolder(scenario);
  return { recordingDir, workDir, sessionsRoot, cwd, repaired };
}

/**
 * Removes the work folder, or lets a reuse scope keep it for the next run when this one `passed`.
 * A failed run's folder is always removed: a child that outlived its kill may still be in it.
 */
export function closeRunFolders(folders: RunFolders, { passed }: { passed: boolean }): Promise<void> {
  return removeWorkFolder(folders.workDir, { reusable: passed });
}
