import type { PartialResponse, RecordedResponse } from '../cassette/types.js';
import { bodyTerminated, fetchFailed, timeoutError } from './network-errors.js';
import { replayBody, type BodyEnding } from './replay-body.js';
import { untilAborted, type ReplayTiming } from './replay-timing.js';

/**
 * The `Response` (or the rejection) a real fetch gave when the call was recorded. `signal` is the
 * caller's, `undefined` when it gave none (nothing can abort the call then).
 */
export async function respond(
  recorded: RecordedResponse,
  timing: ReplayTiming,
  signal: AbortSignal | undefined,
): Promise<Response> {
  if ('events' in recorded) {
    const body = replayBody(
      { events: recorded.events, done: recorded.done, ending: { kind: 'close' } },
      timing,
      signal,
    );
    return new Response(body, { status: recorded.status, headers: recorded.headers });
  }
  if ('body' in recorded) return new Response(recorded.body, { status: recorded.status, headers: recorded.headers });
  const failure = recorded.error;
  const cut = (partial: PartialResponse | undefined, ending: BodyEnding, before: () => Promise<never> | never) =>
    cutResponse(partial, ending, before, timing, signal);
  switch (failure.kind) {
    case 'http':
      return new Response(failure.body, { status: failure.status, headers: failure.headers });
    case 'network':
      return cut(failure.partial, { kind: 'error', error: bodyTerminated(failure.message, failure.code) }, () => {
        throw fetchFailed(failure.message, failure.code);
      });
    case 'timeout':
      return cut(failure.partial, { kind: 'error', error: timeoutError() }, () => {
        throw timeoutError();
      });
    case 'aborted':
      return cut(failure.partial, { kind: 'hold' }, () => untilAborted(signal));
  }
}

/**
 * A call cut short: what it sent before (`partial`), then its ending, or no response at all.
 * At module level, not nested in `respond`: a nested function declaration is created (and under
 * tsx renamed) on every call, the many that answer from a recording included.
 */
function cutResponse(
  partial: PartialResponse | undefined,
  ending: BodyEnding,
  before: () => Promise<never> | never,
  timing: ReplayTiming,
  signal: AbortSignal | undefined,
): Promise<Response> {
  if (!partial) return Promise.resolve().then(before);
  const body = replayBody({ events: partial.events, done: false, ending }, timing, signal);
  return Promise.resolve(new Response(body, { status: partial.status, headers: partial.headers }));
}
