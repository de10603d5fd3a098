import { NestcastError } from '../../harness/errors.js';
import type { ScenarioFailureCode } from './scenario-failure.js';

/** The scenario layer's own codes: what a scenario run, its loading or its selection fails with. */
export type ScenarioErrorCode =
  | 'UNKNOWN_SCENARIO'
  /** `runScenario` or `scenarioTest` was given an option it does not read. */
  | 'OPTIONS_INVALID'
  | 'SCENARIO_INVALID'
  | 'SCENARIO_LOAD_FAILED'
  | 'EXPECTATION_FAILED'
  | 'TRANSCRIPT_MISMATCH'
  | 'INVARIANT_VIOLATION'
  | 'TURN_ERROR'
  | 'MISSING_KEY'
  /** (record) A harness scenario recorded against an API other than DeepSeek's names no model. */
  | 'MODEL_REQUIRED'
  /** (record) `--model` given for a program scenario, whose own code names the model it sends. */
  | 'MODEL_NOT_APPLICABLE'
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
  /** Scenario code sent its worker's parent a message shaped as the runner's own (`process.send`): it cannot give a verdict. */
  | 'VERDICT_FORGED'
  /** A process scenario code started was still running when the scenario ended (it was killed). */
  | 'PROCESS_LEFT_RUNNING'
  /** The nestcast CLI that child processes start from is not where it should be, or `NESTCAST_CLI` names no built cli.js. */
  | 'CLI_NOT_FOUND'
  /** A thrown value that carries no code of its own. */
  | 'ERROR';

/**
 * A scenario that could not run, or ran and did not behave as recorded and expected. Thrown by
 * `assertScenarioPassed`, its code is the first failure's, whatever layer it came from.
 */
export class ScenarioError extends NestcastError<ScenarioFailureCode> {
  /** The sessions the failure is about, when it is about some (CHILD_NOT_STARTED: the child's). */
  readonly sessions?: readonly string[];

  constructor(code: ScenarioFailureCode, message: string, options?: { cause?: unknown; sessions?: readonly string[] }) {
    super(code, message, options);
    if (options?.sessions !== undefined) this.sessions = options.sessions;
  }
}

/**
 * What `assertScenarioPassed` throws: its message holds every failure already, the cause's text
 * included, so as data (how vitest moves an error between threads before printing it) the cause
 * is named by its code instead of being printed a second time. In the process, `cause` is the error.
 */
export class ScenarioFailedError extends ScenarioError {
  constructor(code: ScenarioFailureCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'ScenarioError';
  }

  toJSON(): Record<string, unknown> {
    const causeCode = (this.cause as { code?: unknown } | undefined)?.code;
    return {
      name: this.name,
      message: this.message,
      stack: this.stack,
      code: this.code,
      ...(this.cause === undefined
        ? {}
        : { cause: `${typeof causeCode === 'string' ? causeCode : 'the error'} above` }),
    };
  }
}
