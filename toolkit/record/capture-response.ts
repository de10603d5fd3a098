import { SseParser } from '../exchange/sse-parser.js';
import type { RecordedResponse, SseEvent } from '../cassette/types.js';
import { classifyFailure } from './classify-failure.js';

/**
 * Response headers worth keeping. Everything else (cookies, encodings, dates, rate-limit counters)
 * is dropped: it is either secret, transport-only or changes on every recording.
 */
export const DEFAULT_RESPONSE_HEADERS: readonly string[] = [
  'content-type',
  'retry-after',
  'retry-after-ms',
  'x-request-id',
];

export interface CaptureContext {
  /** `performance.now()` when the request was sent: the first event's delay counts from it. */
  readonly startedAt: number;
  readonly signal: AbortSignal;
  readonly keepHeaders: readonly string[];
}

/** Reads a copy of the response as it arrives and turns it into what a cassette stores. */
export async function captureResponse(copy: Response, context: CaptureContext): Promise<RecordedResponse> {
  const headers = keptHeaders(copy.headers, context.keepHeaders);
  const isStream = (copy.headers.get('content-type') ?? '').includes('text/event-stream');
  if (copy.status >= 400 || !isStream || copy.body === null) {
    try {
      const body = await copy.text();
      if (copy.status >= 400) return { error: { kind: 'http', status: copy.status, headers, body } };
      return { status: copy.status, headers, body };
    } catch (error) {
      return { error: classifyFailure(error, context.signal, { status: copy.status, headers, events: [] }) };
    }
  }
  const events: SseEvent[] = [];
  let done = false;
  let last = context.startedAt;
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const take = (parsed: ReturnType<SseParser['push']>): void => {
    const now = performance.now();
    for (const event of parsed) {
      if ('data' in event && event.data === '[DONE]') {
        done = true;
        continue;
      }
      events.push({ delay: Math.max(0, Math.round(now - last)), ...event });
      last = now;
    }
  };
  const reader = copy.body.getReader();
  // undici leaves a cloned body pending forever once the caller aborts (clients abort to release
  // the connection after [DONE]), so the copy stops at [DONE] and stops waiting on an abort.
  const { signal } = context;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    while (!done) {
      // The read goes first: a chunk already queued wins over an abort that came after it.
      const next = await Promise.race([reader.read(), aborted]);
      if (next === 'aborted') throw signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
      if (next.done) break;
      take(parser.push(decoder.decode(next.value, { stream: true })));
    }
    if (!done) {
      take(parser.push(decoder.decode()));
      take(parser.flush());
    }
  } catch (error) {
    return { error: classifyFailure(error, signal, { status: copy.status, headers, events }) };
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    void reader.cancel().catch(() => undefined);
  }
  return { status: copy.status, headers, events, done };
}

function keptHeaders(headers: Headers, keep: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of keep) {
    const value = headers.get(name);
    if (value !== null) out[name.toLowerCase()] = value;
  }
  return out;
}
