import type { CassetteCall, SseEvent } from '../cassette/types.js';
import { protocolById } from '../protocols/registry.js';
import type { WireProtocol } from '../protocols/wire-protocol.js';
import type { PhaseKind } from './types.js';

/** A recorded call's stream in time: what arrived when, from the delays the recorder kept. */
export interface CallStream {
  /** Milliseconds from the request to the last event. */
  readonly duration: number;
  /** Relative to the request, merged by kind; the stretch before the first token is `wait`. */
  readonly phases: readonly { readonly kind: PhaseKind; readonly start: number; readonly end: number }[];
  /** The recorded failure, one line; `null` for an answer. */
  readonly error: string | null;
}

const ERROR_BODY_CHARS = 200;

export function readCallStream(call: CassetteCall): CallStream {
  const response = call.response;
  const events =
    'events' in response
      ? response.events
      : 'error' in response && response.error.kind !== 'http'
        ? (response.error.partial?.events ?? [])
        : [];
  return {
    ...phasesOf(events, protocolById(call.protocol)),
    error: 'error' in response ? describeFailure(response.error) : null,
  };
}

/** The stream's stretches by what they carried, as the call's protocol reads each event (an opaque call's: none). */
function phasesOf(
  events: readonly SseEvent[],
  protocol: WireProtocol | undefined,
): Pick<CallStream, 'duration' | 'phases'> {
  const phases: { kind: PhaseKind; start: number; end: number }[] = [];
  let time = 0;
  for (const event of events) {
    const before = time;
    time += event.delay;
    const kind = 'data' in event ? protocol?.eventKind(event) : undefined;
    if (kind === undefined) continue;
    const last = phases.at(-1);
    if (last === undefined && before > 0) phases.push({ kind: 'wait', start: 0, end: before });
    if (last !== undefined && last.kind === kind) last.end = time;
    else phases.push({ kind, start: phases.at(-1)?.end ?? before, end: time });
  }
  return { duration: time, phases };
}

function describeFailure(failure: Extract<CassetteCall['response'], { error: unknown }>['error']): string {
  if (failure.kind === 'http') {
    const body = failure.body.replace(/\s+/g, ' ').trim();
    return `HTTP ${failure.status}${body === '' ? '' : `: ${body.length > ERROR_BODY_CHARS ? `${body.slice(0, ERROR_BODY_CHARS)}…` : body}`}`;
  }
  return `${failure.kind}: ${failure.message}`;
}
