/** A request or connection that tried to leave the process. The query string is never kept: it may carry a key. */
export interface NetworkEscape {
  /** The HTTP method, or `CONNECT` for a connection opened below HTTP (a raw socket, an undici `Client`, http2). */
  readonly method: string;
  /** `<origin><path>` of a request; `tcp://host:port` or `tls://host:port` of a connection. */
  readonly url: string;
}

/** What the guards are told and asked: one per thread, the guards of that thread behind it. */
export interface EscapeSink {
  /** Whether every open guard lets this request (or connection: `tcp://host:port`, `tls://host:port`) through. */
  mayLeave(url: URL): boolean;
  record(escape: NetworkEscape): void;
}

export function requestEscape(method: string, url: URL): NetworkEscape {
  return { method, url: `${url.origin}${url.pathname}` };
}

export function isNetworkEscape(value: unknown): value is NetworkEscape {
  const escape = value as Partial<NetworkEscape> | null;
  return typeof escape?.method === 'string' && typeof escape.url === 'string';
}
