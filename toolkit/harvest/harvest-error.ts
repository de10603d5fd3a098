import { NestcastError } from '../../harness/errors.js';

export type HarvestErrorCode =
  | 'SESSIONS_ROOT_NOT_FOUND'
  | 'TRANSCRIPTS_NOT_FOUND'
  | 'TRANSCRIPT_INVALID'
  /** A symbolic link inside a sessions root: a session log is never read through one. */
  | 'SESSION_LOG_LINK';

/** Harvest and transcript failures. Messages name the folder or file:line and what to run. */
export class HarvestError extends NestcastError<HarvestErrorCode> {}
