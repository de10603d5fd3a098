import { NestcastError } from '../../harness/errors.js';

export type ScenarioErrorCode =
  | 'UNKNOWN_SCENARIO'
  | 'SCENARIO_INVALID'
  | 'EXPECTATION_FAILED'
  | 'TRANSCRIPT_MISMATCH'
  | 'INVARIANT_VIOLATION'
  | 'MISSING_KEY'
  | 'WAIT_TIMEOUT'
  | 'SCRIPT_CHANGED'
  | 'SCRIPT_LINEAGE_UNUSED'
  | 'UNSCRIPTED_SESSION'
  | 'NO_SCENARIOS';

/** A scenario that could not run, or ran and did not behave as recorded and expected. */
export class ScenarioError extends NestcastError<ScenarioErrorCode> {}
