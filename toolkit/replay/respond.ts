import type { PartialResponse, RecordedResponse } from '../cassette/types.js';
import { bodyTerminated, fetchFailed, timeoutError } from './network-errors.js';
import { replayBody, type BodyEnding } from './replay-body.js';
import { untilAborted, type ReplayTiming } from './replay-timing.js';

/** The `Response` (or the rejection) a real fetch gave when the call was recorded. */
export async function respond(
  recorded: RecordedResponse,
  timing: ReplayTiming,
  signal: AbortSignal,
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

  function cut(
    partial: PartialResponse | undefined,
    ending: BodyEnding,
    before: () => Promise<never> | never,
  ): Promise<Response> {
    if (!partial) return Promise.resolve().then(before);
    const body = replayBody({ events: partial.events, done: false, ending }, timing, signal);
    return Promise.resolve(new Response(body, { status: partial.status, headers: partial.headers }));
  }
}
