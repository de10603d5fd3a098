import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** A fetch for record mode's upstream hop, with keep-alive connections of its own to let go of. */
export interface UpstreamFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Closes the kept-alive connections. Calls still answering are not cut. */
  close(): void;
}

/**
 * What undici's fetch adds to a request that lacks them: the upstream sees the request it saw
 * when record mode forwarded with fetch. `accept-encoding` is set per scheme below, as fetch does.
 */
const FETCH_DEFAULT_HEADERS: Readonly<Record<string, string>> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
};

/** Statuses whose response has no body, for which `new Response` refuses one. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch on node:http(s) for record mode's hop to the real API: undici's fetch cost about 0.6 ms
 * of the time to first byte on loopback (docs/performance.md, item 12). It behaves as fetch does
 * where record mode can tell: the body streams chunk by chunk as the socket delivers it, an abort
 * (before or during the body) rejects or errors with the signal's reason, a connection that fails
 * rejects with `TypeError('fetch failed')` and one cut mid-body errors the body with
 * `TypeError('terminated')` (node's error as `cause`, carrying its `code`), and gzip, deflate and
 * br bodies are decoded with the `content-encoding` header left as received. Unlike fetch it does
 * not follow redirects: a 3xx reaches the caller as the upstream sent it.
 */
export function createUpstreamFetch(): UpstreamFetch {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const upstreamFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const call = await outgoing(input, init);
    const { url, signal } = call;
    if (signal?.aborted) throw signal.reason;
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:')
      throw new TypeError(`fetch failed`, {
        cause: new Error(`The upstream fetch speaks http and https, not ${url.protocol}`),
      });
    const headers = requestHeaders(call.headers, secure, call.body);
    return new Promise<Response>((resolve, reject) => {
      const send = secure ? httpsRequest : httpRequest;
      const req = send(url, { method: call.method, headers, agent: secure ? agents.https : agents.http });
      let answered: ((reason: unknown) => void) | undefined;
      const onAbort = (): void => {
        const reason: unknown = signal?.reason;
        if (answered) answered(reason);
        else reject(reason);
        req.destroy();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const stopListening = (): void => signal?.removeEventListener('abort', onAbort);
      req.on('error', (error) => {
        // After the head, a failing socket also fails the response, which errors the body.
        if (answered) return;
        stopListening();
        reject(new TypeError('fetch failed', { cause: error }));
      });
      req.once('response', (res) => {
        try {
          const { response, abortBody } = responseOf(res, req, call.method, stopListening);
          answered = abortBody;
          resolve(response);
        } catch (error) {
          stopListening();
          req.destroy();
          reject(error);
        }
      });
      req.end(call.body);
    });
  };
  return Object.assign(upstreamFetch, {
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  });
}

interface Outgoing {
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | Uint8Array | undefined;
  readonly signal: AbortSignal | undefined;
}

/** The call as it goes out. A string body (every forwarded model call) is sent as given; anything else is read through a `Request`. */
async function outgoing(input: string | URL | Request, init: RequestInit | undefined): Promise<Outgoing> {
  const method = (init?.method ?? 'GET').toUpperCase();
  if (!(input instanceof Request) && (init?.body === undefined || init.body === null || typeof init.body === 'string'))
    return {
      url: new URL(input),
      method,
      headers: new Headers(init?.headers),
      body: init?.body ?? undefined,
      signal: init?.signal ?? undefined,
    };
  const request = new Request(input, init);
  const bytes = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  return {
    url: new URL(request.url),
    method: request.method,
    headers: request.headers,
    body: bytes,
    signal: init?.signal ?? request.signal,
  };
}

function requestHeaders(sent: Headers, secure: boolean, body: string | Uint8Array | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of sent) headers[name] = value;
  for (const [name, value] of Object.entries(FETCH_DEFAULT_HEADERS)) headers[name] ??= value;
  headers['accept-encoding'] ??= secure ? 'br, gzip, deflate' : 'gzip, deflate';
  if (body !== undefined)
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  return headers;
}

/**
 * The `Response` for an upstream's head, its body fed by the socket as chunks arrive. `abortBody`
 * errors the body with an abort's reason; `done` runs once the body ended, failed or was cancelled.
 */
function responseOf(
  res: IncomingMessage,
  req: ClientRequest,
  method: string,
  done: () => void,
): { response: Response; abortBody: (reason: unknown) => void } {
  const status = res.statusCode ?? 0;
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    headers.append(res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '');
  const init = { status, statusText: res.statusMessage ?? '', headers };
  if (NULL_BODY_STATUSES.has(status) || method === 'HEAD') {
    res.resume();
    done();
    return { response: new Response(null, init), abortBody: () => undefined };
  }
  const source = decoded(res, headers.get('content-encoding'));
  let abortReason: { reason: unknown } | undefined;
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    done();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      source.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        // Backpressure: the socket waits while nobody reads (a clone's unread branch included).
        if ((controller.desiredSize ?? 1) <= 0) source.pause();
      });
      source.once('end', () => {
        finish();
        controller.close();
      });
      source.on('error', (error) => {
        finish();
        controller.error(abortReason ? abortReason.reason : new TypeError('terminated', { cause: error }));
      });
    },
    pull() {
      source.resume();
    },
    cancel() {
      finish();
      req.destroy();
      source.destroy();
    },
  });
  return {
    response: new Response(body, init),
    abortBody: (reason) => {
      abortReason = { reason };
      source.destroy(reason instanceof Error ? reason : new Error(String(reason)));
    },
  };
}

/** The body decoded as fetch decodes it: codings undone last first; an unknown coding leaves the body as sent. */
function decoded(res: IncomingMessage, encoding: string | null): Readable {
  const codings = (encoding ?? '')
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  const decoders = codings.map(decoderFor);
  if (decoders.length === 0 || decoders.some((decoder) => decoder === undefined)) return res;
  const streams = decoders as Transform[];
  // Errors reach the last stream, which the body reads: nothing is lost by ignoring the callback.
  pipeline([res, ...streams], () => undefined);
  return streams[streams.length - 1] as Transform;
}

/** Each decoder flushes what it has per chunk, so a compressed event stream still streams. */
function decoderFor(coding: string): Transform | undefined {
  const zlibFlush = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
  if (coding === 'gzip' || coding === 'x-gzip') return createGunzip(zlibFlush);
  if (coding === 'deflate') return createInflate(zlibFlush);
  if (coding === 'br')
    return createBrotliDecompress({
      flush: constants.BROTLI_OPERATION_FLUSH,
      finishFlush: constants.BROTLI_OPERATION_FLUSH,
    });
  return undefined;
}
