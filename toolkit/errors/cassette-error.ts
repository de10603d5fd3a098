import { NestcastError } from '../../harness/errors.js';
import type { Divergence } from '../canonical/first-divergence.js';
import { unknownOption, type NestedOptionKeys } from '../../harness/option-keys.js';

export type CassetteErrorCode =
  | 'CASSETTE_NOT_FOUND'
  | 'CASSETTE_INVALID'
  | 'UNRECORDED_SESSION'
  | 'CASSETTE_EXHAUSTED'
  | 'REQUEST_MISMATCH'
  /** A replay failure in a child the recording could not tell apart from a sibling: a lineage fixes it, a re-record cannot. */
  | 'AMBIGUOUS_CHILD'
  | 'UNCONSUMED_CALLS'
  | 'NETWORK_ESCAPE'
  | 'SECRET_IN_RECORDING'
  /** `NESTCAST_SECRET_ENV` lists something that is not a variable name. */
  | 'SECRET_ENV_INVALID'
  | 'SCRIPT_INVALID'
  | 'CASSETTE_MODE_INVALID'
  /** An options object given to a toolkit entry point (cassette, recording, replay, guard, scenario, script, interop, report, secret scan) holds a key it does not read. */
  | 'OPTIONS_INVALID'
  /** The environment sets a `NESTCAST_` variable nestcast does not read (a misspelt `NESTCAST_RECORD`). */
  | 'NESTCAST_VARIABLE_UNKNOWN'
  /** A file an ACP child left in the run's outbox is not what the runner expects. */
  | 'OUTBOX_INVALID'
  /** The journal of an interrupted recording-folder swap is damaged: recovery moves nothing. */
  | 'SWAP_JOURNAL_INVALID'
  /** A recording folder, or something in it, is a symbolic link: never written or read through. */
  | 'RECORDING_LINK'
  /** A session name outside the lineage grammar (see `lineageNameProblem`) was to name a file. */
  | 'LINEAGE_INVALID'
  /** Another live process holds the writer's lock of the recording. */
  | 'RECORDING_LOCKED'
  /** A file system call on a recording failed (permissions, a folder where a file belongs, a file too large, …). */
  | 'RECORDING_UNREADABLE'
  | 'RECORDING_UNWRITABLE';

/** The model call a replay failure is about, as data, so a report can point at it. */
export interface FailedCall {
  readonly lineage: string;
  /** 1-based, counted per lineage. */
  readonly call: number;
  /** Where the live request first differs from the recorded one (REQUEST_MISMATCH). */
  readonly divergence?: Divergence;
}

/** Every record/replay failure. Messages name the place (file:line, lineage, call) and the fix. */
export class CassetteError extends NestcastError<CassetteErrorCode> {
  readonly failedCall?: FailedCall;
  /** The sessions a failure about no one call names (UNCONSUMED_CALLS: those with calls left). */
  readonly sessions?: readonly string[];

  constructor(
    code: CassetteErrorCode,
    message: string,
    options?: { cause?: unknown; failedCall?: FailedCall; sessions?: readonly string[] },
  ) {
    super(code, message, options);
    if (options?.failedCall !== undefined) this.failedCall = options.failedCall;
    if (options?.sessions !== undefined) this.sessions = options.sessions;
  }
}

/** What the user runs to (re)record; shown in every message that ends in "re-record". */
export const DEFAULT_RECORD_HINT = 'nestcast record <scenario>';

/** Throws OPTIONS_INVALID when `options` (given to `where`) holds a key not in `known`, or an object at a `nested` key one not in its list. */
export function refuseUnknownOptions(
  where: string,
  options: object | undefined,
  known: readonly string[],
  nested: NestedOptionKeys = {},
): void {
  const problem = unknownOption(options, known, '', nested);
  if (problem !== undefined) throw new CassetteError('OPTIONS_INVALID', `${where}: ${problem}.`);
}
