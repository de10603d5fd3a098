import { requestContent } from '../canonical/canonical-request.js';
import { jsonEqual } from '../canonical/json-equal.js';
import { firstDivergence, type Divergence } from '../canonical/first-divergence.js';
import { DEFAULT_RECORD_HINT, type CassetteError } from '../cassette/cassette-error.js';
import type { Cassette } from '../cassette/types.js';
import { resolveLineage } from '../lineage/resolve-lineage.js';
import {
  cassetteExhausted,
  requestMismatch,
  showValue,
  unconsumedCalls,
  unrecordedSession,
  type Consumption,
  type MessageContext,
} from './replay-messages.js';
import { callerSignal } from './caller-signal.js';
import { incomingCall } from './incoming-call.js';
import { respond } from './respond.js';
import type { ReplayTiming } from './replay-timing.js';

/** `strict`: the live request must equal the recorded one. `sequence`: serve by position, report drift as warnings. */
export type ReplayMode = 'strict' | 'sequence';

export interface ReplayOptions {
  readonly mode?: ReplayMode;
  readonly timing?: ReplayTiming;
  /** Called for each drift in sequence mode (warnings are also kept in `report()`). */
  readonly onWarning?: (warning: ReplayWarning) => void;
  /** The command that re-records this cassette, quoted in messages. */
  readonly recordHint?: string;
}

/** A request that differed from its recording but was served anyway (sequence mode). */
export interface ReplayWarning {
  readonly code: 'REQUEST_DRIFT';
  readonly lineage: string;
  readonly call: number;
  readonly divergence: Divergence;
  readonly message: string;
}

export interface ReplayReport {
  /** Every session of the cassette or of the run, sorted by lineage. */
  readonly sessions: readonly Consumption[];
  readonly warnings: readonly ReplayWarning[];
  /** Every error replay raised, even those the calling code caught. */
  readonly failures: readonly CassetteError[];
}

export interface ReplayingFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Throws the first failure replay raised (even if the caller caught it), else UNCONSUMED_CALLS if calls were left. */
  assertConsumed(): void;
  report(): ReplayReport;
}

interface SessionState {
  next: number;
  /** Once a session failed, every later call fails the same way: a retrying client cannot walk past it. */
  failure?: CassetteError;
}

/**
 * A fetch that answers from a cassette and never touches the network. Each lineage has its own
 * cursor, taken synchronously when the request arrives, so concurrent sessions each get their own
 * recording whatever order they call in.
 */
export function createReplayingFetch(cassette: Cassette, options: ReplayOptions = {}): ReplayingFetch {
  const mode = options.mode ?? 'strict';
  const timing = options.timing ?? 'instant';
  const context: MessageContext = {
    location: cassette.location === undefined ? 'the cassette' : `the cassette at ${cassette.location}`,
    recordHint: options.recordHint ?? DEFAULT_RECORD_HINT,
  };
  const sessions = new Map<string, SessionState>(Object.keys(cassette.calls).map((lineage) => [lineage, { next: 0 }]));
  const warnings: ReplayWarning[] = [];
  const failures: CassetteError[] = [];

  const fail = (state: SessionState, error: CassetteError): Promise<never> => {
    state.failure ??= error;
    failures.push(error);
    return Promise.reject(error);
  };

  const replayingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = incomingCall(input, init);
    const signal = callerSignal(input, init);
    if (signal.aborted) throw signal.reason;
    const lineage = resolveLineage(request.headers);
    const state = sessions.get(lineage) ?? { next: 0 };
    sessions.set(lineage, state);
    const recorded = cassette.calls[lineage];
    const call = ++state.next;
    if (state.failure) return fail(state, state.failure);
    if (!recorded) return fail(state, unrecordedSession(lineage, Object.keys(cassette.calls).sort(), context));
    const entry = recorded[call - 1];
    if (!entry) return fail(state, cassetteExhausted(lineage, call, recorded.length, context));

    const live = requestContent(await request.text());
    // The equality check allocates nothing; the readable divergence is built only for a mismatch.
    const divergence = entry.request === null || jsonEqual(entry.request, live) ? undefined : firstDivergence(entry.request, live);
    if (divergence && mode === 'strict') return fail(state, requestMismatch(lineage, call, divergence, context));
    if (divergence) warn({ code: 'REQUEST_DRIFT', lineage, call, divergence, message: driftMessage(lineage, call, divergence) });
    return respond(entry.response, timing, signal);
  };

  const warn = (warning: ReplayWarning): void => {
    warnings.push(warning);
    options.onWarning?.(warning);
  };

  const report = (): ReplayReport => ({
    sessions: [...sessions.entries()]
      .map(([lineage, state]) => {
        const total = cassette.calls[lineage]?.length ?? 0;
        return { lineage, consumed: Math.min(state.next, total), total };
      })
      .sort((a, b) => (a.lineage < b.lineage ? -1 : a.lineage > b.lineage ? 1 : 0)),
    warnings: [...warnings],
    failures: [...failures],
  });

  return Object.assign(replayingFetch, {
    report,
    assertConsumed(): void {
      const [firstFailure] = failures;
      if (firstFailure) throw firstFailure;
      const left = report().sessions.filter((session) => session.consumed < session.total);
      if (left.length > 0) throw unconsumedCalls(left, context);
    },
  });
}

function driftMessage(lineage: string, call: number, divergence: Divergence): string {
  return (
    `Model call ${call} of session "${lineage}" differs from its recording at ${divergence.path} ` +
    `(recorded ${showValue(divergence.recorded)}, live ${showValue(divergence.live)}); served the recording anyway (sequence mode).`
  );
}
