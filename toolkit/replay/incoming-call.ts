/** What replay reads of a fetch call: its headers now, its body text when matching. */
export interface IncomingCall {
  readonly headers: Headers;
  text(): Promise<string>;
}

/**
 * Reads a fetch call the way `new Request(input, init)` would. A string body sent with a method
 * that may carry one (every model call) is taken as it is: building a `Request` and reading its
 * stream back would cost more than the rest of a replayed call. The URL and headers are still
 * checked as fetch checks them. Any other call goes through a real `Request`.
 */
export function incomingCall(input: string | URL | Request, init: RequestInit | undefined): IncomingCall {
  const body = init?.body;
  const method = init?.method?.toUpperCase();
  if (
    typeof body === 'string' &&
    !(input instanceof Request) &&
    method !== undefined &&
    method !== 'GET' &&
    method !== 'HEAD'
  ) {
    new URL(input);
    const headers = new Headers(init?.headers);
    return { headers, text: () => Promise.resolve(body) };
  }
  const request = new Request(input, init);
  return { headers: request.headers, text: () => request.text() };
}
