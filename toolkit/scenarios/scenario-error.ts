import { NestcastError } from '../../harness/errors.js';

export type ScenarioErrorCode =
  | 'UNKNOWN_SCENARIO'
  | 'SCENARIO_INVALID'
  | 'EXPECTATION_FAILED'
  | 'TRANSCRIPT_MISMATCH'
  | 'INVARIANT_VIOLATION'
  | 'MISSING_KEY'
  | 'WAIT_TIMEOUT'
  | 'SCENARIO_TIMEOUT'
  | 'SCENARIO_STALLED'
  | 'SCENARIO_EXIT'
  | 'SCRIPT_CHANGED'
  | 'SCRIPT_LINEAGE_UNUSED'
  | 'UNSCRIPTED_SESSION'
  | 'NO_SCENARIOS'
  | 'NOT_SAVED';

/** A scenario that could not run, or ran and did not behave as recorded and expected. */
export class ScenarioError extends NestcastError<ScenarioErrorCode> {}
