import { NestcastError } from '../../harness/errors.js';
import type { ScenarioFailureCode } from './scenario-failure.js';

/** The scenario layer's own codes: what a scenario run, its loading or its selection fails with. */
export type ScenarioErrorCode =
  | 'UNKNOWN_SCENARIO'
  | 'SCENARIO_INVALID'
  | 'SCENARIO_LOAD_FAILED'
  | 'EXPECTATION_FAILED'
  | 'TRANSCRIPT_MISMATCH'
  | 'INVARIANT_VIOLATION'
  | 'TURN_ERROR'
  | 'MISSING_KEY'
  /** (record) A harness scenario recorded against an API other than DeepSeek's names no model. */
  | 'MODEL_REQUIRED'
  | 'WAIT_TIMEOUT'
  | 'SCENARIO_TIMEOUT'
  | 'SCENARIO_STALLED'
  | 'SCENARIO_EXIT'
  | 'SCRIPT_CHANGED'
  | 'SCRIPT_LINEAGE_UNUSED'
  | 'UNSCRIPTED_SESSION'
  | 'NO_SCENARIOS'
  | 'NOT_RECORDED'
  | 'NOT_SAVED'
  /** A program scenario's program threw instead of returning. */
  | 'PROGRAM_FAILED'
  /** (record) An ACP child's process could not be started at all: nothing of it could be recorded. */
  | 'CHILD_NOT_STARTED'
  /** A worker process of `nestcast run` ended before its scenario had a verdict. */
  | 'WORKER_EXITED'
  /** A process scenario code started was still running when the scenario ended (it was killed). */
  | 'PROCESS_LEFT_RUNNING'
  /** A thrown value that carries no code of its own. */
  | 'ERROR';

/**
 * A scenario that could not run, or ran and did not behave as recorded and expected. Thrown by
 * `assertScenarioPassed`, its code is the first failure's, whatever layer it came from.
 */
export class ScenarioError extends NestcastError<ScenarioFailureCode> {}
