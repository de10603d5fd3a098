import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenClosable } from '../../harness/http/listen-closable.js';
import { readBody } from '../../harness/http/read-body.js';
import { LINEAGE_HEADER } from '../../harness/llm/types.js';
import { compileScript } from '../authored/compile-script.js';
import type { AuthoredScript, AuthoredTurn } from '../authored/types.js';
import { CassetteError } from '../errors/cassette-error.js';
import type { CassetteCall } from '../cassette/types.js';
import { DEFAULT_LINEAGE } from '../../harness/session/lineage.js';
import { readRequest } from '../canonical/canonical-request.js';
import { errorResponseOf, PROTOCOLS, protocolOf } from '../protocols/registry.js';
import type { WireProtocol } from '../protocols/wire-protocol.js';
import { createReplayingFetch, type ReplayReport } from '../replay/replaying-fetch.js';

export interface ModelServerOptions {
  readonly scripts: AuthoredScript;
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Pause before each streamed event, in ms, so a recorder captures real timing. Default 2. */
  readonly eventDelay?: number;
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>`: use it as the client's base URL. */
  readonly url: string;
  /** Which scripted calls each session has consumed. */
  report(): ReplayReport;
  /**
   * The body of every model call the session `lineage` sent, parsed from JSON (the raw text when
   * it is not JSON), in arrival order; answered or not.
   */
  requests(lineage: string): unknown[];
  /**
   * Appends turns to the script of `lineage` (a session the script did not have becomes known),
   * served after its earlier turns. Throws SCRIPT_INVALID for an invalid turn, or when the session
   * was already refused a call (404/409): replay keeps failing a session that failed once.
   */
  add(lineage: string, ...turns: AuthoredTurn[]): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

const REQUEST_ID_HEADER = 'x-nestcast-model-server-request';
const STATUS_BY_CODE: Partial<Record<string, number>> = { UNRECORDED_SESSION: 404, CASSETTE_EXHAUSTED: 409 };

/**
 * A loopback server answering every model API nestcast knows (each wire protocol's requests, by
 * path: `POST …/chat/completions`, `POST …/responses`, …) from authored scripts, per session (the
 * `x-session-lineage` header, else the session derived from the request's content, as replay
 * derives it), each reply rendered in the wire form of the request it answers, over the same
 * replay path as a cassette. Lets record mode run end to end with no key, for this harness and
 * for any framework's agents.
 */
export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const eventDelay = options.eventDelay ?? 2;
  const compiled = compileScript(options.scripts, { eventDelay });
  // Owned here so `add` can extend a session: replay looks a session's calls up at each request.
  const calls: Record<string, readonly CassetteCall[]> = { ...compiled.calls };
  const turns = new Map<string, readonly AuthoredTurn[]>(Object.entries(options.scripts.lineages));
  const received = new Map<string, unknown[]>();
  const replay = createReplayingFetch(
    { ...compiled, calls },
    {
      mode: 'sequence',
      timing: 'recorded',
      failures: 'reject',
      onCall: ({ lineage, body, headers }) => {
        const bodies = received.get(lineage) ?? [];
        received.set(lineage, bodies);
        bodies.push(parseBody(body));
        const id = headers.get(REQUEST_ID_HEADER);
        if (id !== null) filedAs.set(id, lineage);
      },
    },
  );
  const refused = new Set<string>();
  /** Which session each request in flight was filed under, by our own request id. */
  const filedAs = new Map<string, string>();
  let requestIds = 0;
  const server = createServer((req, res) => void answer(req, res));

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://model-server');
    const method = req.method ?? 'GET';
    const protocol = protocolOf({ method, url, body: readRequest(body).sent });
    if (!protocol) {
      const served = PROTOCOLS.map((known) => `POST <base URL>/${known.endpoint({}, false)} (${known.title})`);
      return sendError(
        res,
        undefined,
        404,
        `nestcast model-server answers model calls only (${served.join(', ')}), not ${method} ${req.url}`,
        'NOT_FOUND',
      );
    }
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const named = headerValue(req.headers[LINEAGE_HEADER]);
    const id = String(++requestIds);
    let response: Response;
    try {
      response = await replay(url.href, {
        method,
        headers: { [REQUEST_ID_HEADER]: id, ...(named === undefined ? {} : { [LINEAGE_HEADER]: named }) },
        body,
        signal: gone.signal,
      });
    } catch (error) {
      if (error instanceof CassetteError) {
        refused.add(filedAs.get(id) ?? named ?? DEFAULT_LINEAGE);
        return sendError(res, protocol, STATUS_BY_CODE[error.code] ?? 500, error.message, error.code);
      }
      req.socket.destroy();
      return;
    } finally {
      filedAs.delete(id);
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.flushHeaders();
    try {
      for await (const chunk of response.body ?? []) res.write(chunk);
      res.end();
    } catch {
      req.socket.destroy();
    }
  }

  const { address, close } = await listenClosable(server, { host: options.host, port: options.port });
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    report: () => replay.report(),
    requests: (lineage) => [...(received.get(lineage) ?? [])],
    add: (lineage, ...more) => {
      if (refused.has(lineage)) {
        throw new CassetteError(
          'SCRIPT_INVALID',
          `Cannot add turns to session "${lineage}": the model server already refused it a call, and a refused session is refused for good. Add its turns before it calls.`,
        );
      }
      const all = [...(turns.get(lineage) ?? []), ...more];
      // The whole session is compiled again so chunk ids and default tool-call ids run on from its earlier turns.
      const script: AuthoredScript = {
        ...(options.scripts.model === undefined ? {} : { model: options.scripts.model }),
        lineages: { [lineage]: all },
      };
      calls[lineage] =
        compileScript(script, { eventDelay, source: `(turns added to session "${lineage}")` }).calls[lineage] ?? [];
      turns.set(lineage, all);
    },
    close,
  };
}

/** Errors in the shape of the call's protocol, so its SDKs show the message. */
function sendError(
  res: ServerResponse,
  protocol: WireProtocol | undefined,
  status: number,
  message: string,
  code: string,
): void {
  const answer = errorResponseOf(protocol, code, message);
  res.writeHead(status, answer.headers);
  res.end(JSON.stringify(answer.body));
}

function headerValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? undefined : first;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
