/**
 * The caller's own signal. A `Request`'s copy follows it only through a weak reference, so once
 * the Request is collected an abort would no longer reach a long-lived body.
 */
export function callerSignal(input: string | URL | Request, init: RequestInit | undefined): AbortSignal {
  return init?.signal ?? (input instanceof Request ? input.signal : new AbortController().signal);
}
