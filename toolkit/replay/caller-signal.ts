/**
 * The caller's own signal. A `Request`'s copy follows it only through a weak reference, so once
 * the Request is collected an abort would no longer reach a long-lived body.
 */
export function callerSignal(input: string | URL | Request, init: RequestInit | undefined): AbortSignal {
  return givenSignal(input, init) ?? new AbortController().signal;
}

/**
 * The caller's own signal, or `undefined` when it gave none: nothing can abort that call, so
 * replay makes no signal for it (an `AbortController` costs about 6 µs on Node 20, more than the
 * rest of reading a replayed call's request; `@google/genai` sends none).
 */
export function givenSignal(input: string | URL | Request, init: RequestInit | undefined): AbortSignal | undefined {
  return init?.signal ?? (input instanceof Request ? input.signal : undefined);
}
