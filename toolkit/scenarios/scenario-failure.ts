import type { HarnessErrorCode } from '../../harness/errors.js';
import type { LlmErrorCode } from '../../harness/llm/errors.js';
import type { SubagentErrorCode } from '../../providers/seam/errors.js';
import type { AcpCassetteErrorCode } from '../acp-cassette/acp-cassette-error.js';
import type { CassetteErrorCode, FailedCall } from '../errors/cassette-error.js';
import type { HarvestErrorCode } from '../harvest/harvest-error.js';
import type { ScenarioErrorCode } from './scenario-error.js';

/**
 * The code of one failure of a scenario run: the scenario layer's own, or the code of the error
 * from a lower layer that failed it (a replay's REQUEST_MISMATCH), kept as it is.
 */
export type ScenarioFailureCode =
  | ScenarioErrorCode
  | CassetteErrorCode
  | AcpCassetteErrorCode
  | HarvestErrorCode
  | 'NORMALISATION_INVALID'
  | HarnessErrorCode
  | SubagentErrorCode
  | LlmErrorCode;

/** One failure of a scenario run: a stable code and a message that names the scenario, where, and what to do. */
export interface ScenarioFailure {
  readonly code: ScenarioFailureCode;
  readonly message: string;
  /** The model call a replay failure is about (REQUEST_MISMATCH, CASSETTE_EXHAUSTED, UNRECORDED_SESSION). */
  readonly failedCall?: FailedCall;
  /** The sessions a failure about no one call names (a turn's error, unconsumed calls): what ties it to its cause. */
  readonly sessions?: readonly string[];
  /** Caused by the failure before it that is not one (see `groupByCause`): reporters list it under that one, in short. */
  readonly consequence?: true;
  /**
   * The error this failure was made from, in the process that ran the scenario. Not enumerable:
   * a report stays plain data (a worker sends it as JSON, reporters print code and message).
   */
  readonly cause?: unknown;
}

/** The failures of one run, in order, each once, its message prefixed with the scenario's name. */
export interface FailureList {
  readonly all: ScenarioFailure[];
  add(
    code: ScenarioFailureCode,
    message: string,
    from?: { readonly failedCall?: FailedCall; readonly sessions?: readonly string[]; readonly cause?: unknown },
  ): void;
  /** A thrown value as a failure with its own code and the value as its cause. */
  addThrown(error: unknown): void;
  /** Puts failures before all others, unmerged: the causes the others only show the effect of. */
  lead(
    causes: readonly {
      readonly code: ScenarioFailureCode;
      readonly message: string;
      readonly sessions?: readonly string[];
    }[],
  ): void;
}

export function failureList(scenario: string): FailureList {
  const all: ScenarioFailure[] = [];
  const add: FailureList['add'] = (code, message, from = {}) => {
    const failure = {
      code,
      message: `${scenario}: ${message}`,
      ...(from.failedCall !== undefined ? { failedCall: from.failedCall } : {}),
      ...(from.sessions !== undefined ? { sessions: from.sessions } : {}),
    };
    // Once per scenario: a client that retries meets the same replay failure several times.
    if (all.some((seen) => seen.code === failure.code && seen.message === failure.message)) return;
    if (from.cause !== undefined) Object.defineProperty(failure, 'cause', { value: from.cause, enumerable: false });
    all.push(failure);
  };
  return {
    all,
    add,
    addThrown: (error) => add(codeOf(error), error instanceof Error ? error.message : String(error), { cause: error }),
    lead: (causes) =>
      void all.unshift(
        ...causes.map(({ code, message, sessions }) => ({
          code,
          message: `${scenario}: ${message}`,
          ...(sessions !== undefined ? { sessions } : {}),
        })),
      ),
  };
}

/**
 * The code a thrown value carries, or ERROR. An error from outside nestcast keeps its own code
 * too (Node's `EACCES`): the union names nestcast's codes, a report shows whichever it got.
 */
export function codeOf(error: unknown): ScenarioFailureCode {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? (code as ScenarioFailureCode) : 'ERROR';
}
