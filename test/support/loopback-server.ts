import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listenClosable } from '../../harness/http/listen-closable.js';
import { readBody } from '../../harness/http/read-body.js';

/** How a response ended, as the server saw it: fully sent, or its connection closed first. */
export type ResponseOutcome = 'completed' | 'closed-early';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Settles when the connection carrying the response closes or the response finishes. */
  readonly outcome: Promise<ResponseOutcome>;
}

export type LoopbackHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Stops listening and destroys every open socket, so no test hangs on a held response. */
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 with an ephemeral port, recording every request it answers. */
export async function startLoopbackServer(handler: LoopbackHandler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      const request: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        outcome: new Promise((resolve) =>
          res.once('close', () => resolve(res.writableFinished ? 'completed' : 'closed-early')),
        ),
      };
      requests.push(request);
      try {
        await handler(request, res);
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`loopback handler failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  });
  const { address, close } = await listenClosable(server);
  return { url: `http://127.0.0.1:${address.port}`, requests, close };
}

/** One step of a scripted response. */
export type ResponseStep =
  | { readonly kind: 'write'; readonly text: string }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'end' }
  | { readonly kind: 'destroy' }
  | {
      readonly kind: 'reply';
      readonly status: number;
      readonly body: string;
      readonly headers?: Readonly<Record<string, string>>;
    };

export const write = (text: string): ResponseStep => ({ kind: 'write', text });
/** Pauses the script; cut short when the connection closes. */
export const wait = (ms: number): ResponseStep => ({ kind: 'wait', ms });
export const end = (): ResponseStep => ({ kind: 'end' });
/** Drops the connection without finishing the response, as a crashed server or proxy would. */
export const destroySocket = (): ResponseStep => ({ kind: 'destroy' });
export const reply = (status: number, body: string, headers: Readonly<Record<string, string>> = {}): ResponseStep => ({
  kind: 'reply',
  status,
  body,
  headers,
});

/**
 * A handler that plays `steps` for every request. Unless the first step is a `reply`, the
 * response starts at once as `200 text/event-stream` with its headers flushed. A script that
 * runs out of steps ends the response; use `wait` to hold it open.
 */
export function scriptedResponse(steps: readonly ResponseStep[]): LoopbackHandler {
  return async (_request, res) => {
    if (steps[0]?.kind !== 'reply') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
    }
    for (const step of steps) {
      if (res.destroyed) return;
      switch (step.kind) {
        case 'write':
          res.write(step.text);
          break;
        case 'wait':
          await waitUnlessClosed(res, step.ms);
          break;
        case 'end':
          res.end();
          return;
        case 'destroy':
          res.socket?.destroy();
          return;
        case 'reply':
          res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
          res.end(step.body);
          return;
      }
    }
    if (!res.destroyed) res.end();
  };
}

function waitUnlessClosed(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once('close', done);
  });
}

/** `data: <json>\n\n` for each chunk, then `data: [DONE]\n\n` unless `done: false`. */
export function sseFrames(chunks: readonly object[], options: { readonly done?: boolean } = {}): string {
  const frames = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('');
  return options.done === false ? frames : `${frames}data: [DONE]\n\n`;
}
