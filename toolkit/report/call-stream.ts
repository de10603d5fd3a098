import type { CassetteCall, SseEvent } from '../cassette/types.js';
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
  return { ...phasesOf(events), error: 'error' in response ? describeFailure(response.error) : null };
}

function phasesOf(events: readonly SseEvent[]): Pick<CallStream, 'duration' | 'phases'> {
  const phases: { kind: PhaseKind; start: number; end: number }[] = [];
  let time = 0;
  for (const event of events) {
    const before = time;
    time += event.delay;
    const kind = 'data' in event ? kindOf(event.data) : undefined;
    if (kind === undefined) continue;
    const last = phases.at(-1);
    if (last === undefined && before > 0) phases.push({ kind: 'wait', start: 0, end: before });
    if (last !== undefined && last.kind === kind) last.end = time;
    else phases.push({ kind, start: phases.at(-1)?.end ?? before, end: time });
  }
  return { duration: time, phases };
}

/** What one chunk carried: thinking, words, or tool-call fragments (role-only and usage chunks carry none). */
function kindOf(data: string): PhaseKind | undefined {
  if (data === '[DONE]') return undefined;
  let chunk: { choices?: { delta?: { content?: unknown; reasoning_content?: unknown; tool_calls?: unknown } }[] };
  try {
    chunk = JSON.parse(data) as typeof chunk;
  } catch {
    return undefined;
  }
  const delta = chunk.choices?.[0]?.delta;
  if (delta === undefined) return undefined;
  if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') return 'reasoning';
  if (Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0) return 'tool-call';
  if (typeof delta.content === 'string' && delta.content !== '') return 'text';
  return undefined;
}

function describeFailure(failure: Extract<CassetteCall['response'], { error: unknown }>['error']): string {
  if (failure.kind === 'http') {
    const body = failure.body.replace(/\s+/g, ' ').trim();
    return `HTTP ${failure.status}${body === '' ? '' : `: ${body.length > ERROR_BODY_CHARS ? `${body.slice(0, ERROR_BODY_CHARS)}…` : body}`}`;
  }
  return `${failure.kind}: ${failure.message}`;
}
