import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { recoverInterruptedSwaps } from '../../recording-folder/recover-swaps.js';
import { makeWorkFolder, removeWorkFolder } from '../work-folders.js';

/** Where one scenario run lives: its recording folder, and a private work folder removed after it. */
export interface RunFolders {
  /** `<recordings>/<scenario>`, absolute: out-of-process children run in the scenario's workspace, not here. */
  readonly recordingDir: string;
  readonly workDir: string;
  readonly sessionsRoot: string;
  /** The main session's working directory. */
  readonly cwd: string;
}

export async function openRunFolders(scenario: string, recordingsDir = 'recordings'): Promise<RunFolders> {
  const recordingDir = resolve(recordingsDir, scenario);
  // A save another run of this folder left half-done is finished first, so this run sees it whole.
  recoverInterruptedSwaps(recordingDir);
  const workDir = await makeWorkFolder(scenario);
  const folders = { recordingDir, workDir, sessionsRoot: join(workDir, 'sessions'), cwd: join(workDir, 'workspace') };
  mkdirSync(folders.sessionsRoot, { recursive: true });
  mkdirSync(folders.cwd, { recursive: true });
  return folders;
}

export function closeRunFolders(folders: RunFolders): Promise<void> {
  return removeWorkFolder(folders.workDir);
}
