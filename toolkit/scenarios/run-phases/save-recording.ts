import { join } from 'node:path';
import type { NormalizedSession } from '../../harvest/normalize.js';
import { writeTranscripts } from '../../harvest/transcript.js';
import { TRANSCRIPTS_DIR } from '../../harvest/transcript-files.js';
import { replaceFolder } from '../../recording-folder/replace-folder.js';
import type { ModelSourceResult } from '../model-source.js';
import type { FailureList } from '../scenario-failure.js';

/**
 * A recording is saved whole or not at all: calls and transcripts only for a run that passed, so
 * re-recording a broken scenario never replaces a good recording with half of a bad one (the run
 * then ends with `refuseToSave`). Settles with whether the transcripts were written.
 */
export async function saveRecording(
  recordingDir: string,
  result: ModelSourceResult,
  normalized: readonly NormalizedSession[],
  failures: FailureList,
): Promise<boolean> {
  if (failures.all.length > 0) return false;
  // Calls, meta and transcripts swapped in as one folder: a kill or a write error leaves the old one whole.
  await replaceFolder(recordingDir, async (staged) => {
    await result.save?.(staged);
    await writeTranscripts(join(staged, TRANSCRIPTS_DIR), normalized);
  });
  return true;
}

/** The failure that says a run that should have written its recording wrote nothing. */
export function refuseToSave(recordingDir: string, failures: FailureList): void {
  failures.add(
    'NOT_SAVED',
    `nothing was written to ${recordingDir}: fix the failures above, then run the command again`,
  );
}
