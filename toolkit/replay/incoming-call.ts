/** What nestcast reads of a fetch call: its URL and headers now, its body text when matching or recording. */
export interface IncomingCall {
  /** Upper case, as fetch normalises it. */
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  /** The body as text. Reads a copy, so the call can still be sent on. */
  text(): Promise<string>;
  /** The arguments that send the call on with other headers and the caller's signal: a recorder's upstream call. */
  sendOn(headers: Headers, signal: AbortSignal): [input: string | Request, init: RequestInit];
}

/**
 * Reads a fetch call the way `new Request(input, init)` would. A string body sent with a method
 * that may carry one (every model call) is taken as it is: building a `Request` and reading its
 * stream back would cost more than the rest of a replayed call, and a long session's requests are
 * megabytes that a recorder would copy three times. The URL and headers are still checked as fetch
 * checks them. Any other call goes through a real `Request`.
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
  )
    return new StringBodyCall(method, new URL(input), body, init as RequestInit);
  return new RequestCall(new Request(input, init));
}

/**
 * A call with a string body, read as it was given. Classes rather than object literals of
 * closures: every replayed call builds one, and methods on a prototype are not allocated per call.
 */
class StringBodyCall implements IncomingCall {
  readonly headers: Headers;

  constructor(
    readonly method: string,
    readonly url: URL,
    readonly body: string,
    readonly init: RequestInit,
  ) {
    // A Headers object was checked when it was built; copying it costs more than the rest of the read.
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
  }

  text(): Promise<string> {
    return Promise.resolve(this.body);
  }

  sendOn(headers: Headers, signal: AbortSignal): [input: string | Request, init: RequestInit] {
    return [this.url.href, { ...this.init, headers, signal }];
  }
}

/** Any other call, through a real `Request`. */
class RequestCall implements IncomingCall {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;

  constructor(readonly request: Request) {
    this.method = request.method;
    this.url = new URL(request.url);
    this.headers = request.headers;
  }

  text(): Promise<string> {
    return this.request.clone().text();
  }

  sendOn(headers: Headers, signal: AbortSignal): [input: string | Request, init: RequestInit] {
    return [headers === this.request.headers ? this.request : new Request(this.request, { headers }), { signal }];
  }
}
