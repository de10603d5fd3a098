import { NestcastError } from '../../harness/errors.js';

export type CassetteErrorCode =
  | 'CASSETTE_NOT_FOUND'
  | 'CASSETTE_INVALID'
  | 'UNRECORDED_SESSION'
  | 'CASSETTE_EXHAUSTED'
  | 'REQUEST_MISMATCH'
  | 'UNCONSUMED_CALLS'
  | 'NETWORK_ESCAPE'
  | 'SECRET_IN_RECORDING'
  | 'SCRIPT_INVALID';

/** Every record/replay failure. Messages name the place (file:line, lineage, call) and the fix. */
export class CassetteError extends NestcastError<CassetteErrorCode> {}

/** What the user runs to (re)record; shown in every message that ends in "re-record". */
export const DEFAULT_RECORD_HINT = 'nestcast record <scenario>';
