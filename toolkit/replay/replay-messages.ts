import type { Divergence } from '../canonical/first-divergence.js';
import { showPath, showValues } from '../canonical/show-values.js';
import type { RecordedAmbiguity } from '../cassette/types.js';
import { CassetteError } from '../errors/cassette-error.js';
import { namedList } from '../errors/named-list.js';
import { mismatchAdvice } from './mismatch-advice.js';

/** Where the cassette came from and how to re-record it, for every message. */
export interface MessageContext {
  readonly location: string;
  readonly recordHint: string;
}

export function unrecordedSession(lineage: string, known: readonly string[], context: MessageContext): CassetteError {
  return new CassetteError(
    'UNRECORDED_SESSION',
    `Session "${lineage}" made a model call, but ${context.location} has no recording for it. ` +
      `Recorded sessions: ${known.length === 0 ? '(none)' : namedList(known, lineage)}. ` +
      'The run took a different path than the recording (a child started by another tool call gets another lineage). ' +
      `If the change is intended, re-record with: ${context.recordHint}`,
    { failedCall: { lineage, call: 1 } },
  );
}

export function cassetteExhausted(
  lineage: string,
  call: number,
  total: number,
  context: MessageContext,
): CassetteError {
  return new CassetteError(
    'CASSETTE_EXHAUSTED',
    `Session "${lineage}" made model call ${call}, but ${context.location} recorded only ${total} call${total === 1 ? '' : 's'} for it. ` +
      `The code now makes more calls than when it was recorded; if that is intended, re-record with: ${context.recordHint}`,
    { failedCall: { lineage, call } },
  );
}

export function requestMismatch(
  lineage: string,
  call: number,
  divergence: Divergence,
  context: MessageContext,
): CassetteError {
  const [recorded, live] = showValues(divergence.recorded, divergence.live);
  return new CassetteError(
    'REQUEST_MISMATCH',
    `Model call ${call} of session "${lineage}" does not match ${context.location} at ${showPath(divergence.path)}:\n` +
      `  recorded: ${recorded}\n` +
      `  live:     ${live}\n` +
      mismatchAdvice(divergence, call, context.recordHint),
    { failedCall: { lineage, call, divergence } },
  );
}

export interface Consumption {
  readonly lineage: string;
  readonly consumed: number;
  readonly total: number;
}

export function unconsumedCalls(sessions: readonly Consumption[], context: MessageContext): CassetteError {
  const list = sessions.map((s) => `  ${s.lineage}: ${s.consumed}/${s.total} calls consumed`).join('\n');
  return new CassetteError(
    'UNCONSUMED_CALLS',
    `The run ended with recorded model calls nobody requested (${context.location}):\n${list}\n` +
      `The code now makes fewer calls than when it was recorded; if that is intended, re-record with: ${context.recordHint}`,
    { sessions: sessions.map((s) => s.lineage) },
  );
}

export { showValue } from '../canonical/show-values.js';

/**
 * A replay failure in a session the recording filed under one of several equal tool calls (or in
 * a sibling hanging from them): which recording a run binds to depends on which child calls first,
 * so re-recording cannot fix it; a lineage (or different arguments) can.
 */
export function ambiguousChildFailure(
  failure: CassetteError,
  ambiguities: readonly RecordedAmbiguity[] | undefined,
): CassetteError {
  const lineage = failure.failedCall?.lineage;
  if (lineage === undefined || failure.code === 'AMBIGUOUS_CHILD') return failure;
  const ambiguity = ambiguities?.find((recorded) => touches(recorded, lineage));
  if (!ambiguity) return failure;
  const calls = ambiguity.candidates.map((call) => `${call.name} call ${call.id} of "${call.lineage}"`).join(' and ');
  const where = failure.failedCall?.divergence ? ` at ${showPath(failure.failedCall.divergence.path)}` : '';
  return new CassetteError(
    'AMBIGUOUS_CHILD',
    `Model call ${failure.failedCall?.call ?? 1} of session "${lineage}" failed to replay (${failure.code}${where}), and the recording marked this child ambiguous: ` +
      `session "${ambiguity.lineage}" matched ${calls} equally (its prompt holds the arguments of each), so a run whose children call in another order binds them to each other's recordings. ` +
      'Recording again cannot fix this. Fix: give those calls different arguments, or name the child with the x-session-lineage header or withLineage(lineage, fn) around the sub-agent.',
    { cause: failure, ...(failure.failedCall ? { failedCall: failure.failedCall } : {}) },
  );
}

function touches(ambiguity: RecordedAmbiguity, lineage: string): boolean {
  if (ambiguity.lineage === lineage) return true;
  return ambiguity.candidates.some((call) => {
    const child = `${call.lineage}/${call.id}`;
    return lineage === child || lineage.startsWith(`${child}#`) || lineage.startsWith(`${child}/`);
  });
}
