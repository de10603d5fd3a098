import type { RequestHandler } from 'msw';
import { http } from 'msw/core/http';
import { syncBuiltinESMExports } from 'node:module';
import { setupServer, type SetupServer } from 'msw/node';
import { armConnectRefusal, type ConnectRefusal } from './connect-refusal.js';
import { assertNoNetworkEscapes } from './assert-no-network-escapes.js';
import { requestEscape, type EscapeSink, type NetworkEscape } from './network-escape.js';
import { armUndiciRefusal, type UndiciRefusal } from './undici-refusal.js';
import { armWorkerThreadGuards, type WorkerThreadGuards } from './worker-thread-guards.js';

export type { NetworkEscape } from './network-escape.js';

export interface NetworkGuardOptions {
  /**
   * Requests allowed to reach the network on purpose (a loopback server the test starts, say).
   * Asked for each request with its URL, and for each connection with `tcp://host:port` or
   * `tls://host:port`: decide on `url.hostname` and `url.port`. Worker threads allow nothing.
   */
  readonly allow?: (url: URL) => boolean;
  /** msw handlers that answer requests (e.g. `serveCassetteWithMsw(...).handlers`); what they answer is not an escape. */
  readonly handlers?: readonly RequestHandler[];
}

export interface NetworkGuard {
  escapes(): readonly NetworkEscape[];
  /** Throws NETWORK_ESCAPE if any request tried to leave, even one whose failure the caller caught or retried. */
  assertNoEscapes(): void;
  /** Removes this guard. Guards nest: the interception stays while any other guard is open. */
  close(): void;
}

interface ActiveGuard {
  readonly options: NetworkGuardOptions;
  readonly escapes: NetworkEscape[];
}

/** Open guards, innermost last. One msw server serves them all, so closing one never disarms another. */
const active: ActiveGuard[] = [];
let server: SetupServer | undefined;
let undici: UndiciRefusal | undefined;
let sockets: ConnectRefusal | undefined;
let workers: WorkerThreadGuards | undefined;

/** A request leaves only if every open guard allows it; otherwise every open guard records it. */
function mayLeave(url: URL): boolean {
  return active.every((guard) => guard.options.allow?.(url) === true);
}

function record(escape: NetworkEscape): void {
  for (const guard of active) guard.escapes.push(escape);
}

const sink: EscapeSink = { mayLeave, record };

/**
 * msw's own \`passthrough()\`, which only its main entry exports: that entry also loads its GraphQL
 * support and the \`graphql\` package (over 100 ms in every process that arms a guard). The guard's
 * \`allow\` test proves msw still lets such a response through.
 */
function passthrough(): Response {
  return new Response(null, { status: 302, statusText: 'Passthrough', headers: { 'x-msw-intention': 'passthrough' } });
}

const catchAll = http.all('*', ({ request }) => {
  const url = new URL(request.url);
  if (mayLeave(url)) return passthrough();
  record(requestEscape(request.method, url));
  return Response.error();
});

/** Handlers of the innermost guard answer first. */
function refreshHandlers(): void {
  server?.resetHandlers(...[...active].reverse().flatMap((guard) => guard.options.handlers ?? []), catchAll);
}

/**
 * Replay mode's guard: global fetch, node:http/https and XMLHttpRequest are intercepted with msw
 * (also for ESM code that imported `request` from 'node:http' by name, or captured `fetch` once
 * the guard was armed); requests through undici's global dispatcher (the npm `undici` package
 * imported directly) are refused by name; every TCP connection below them (undici's own `Client`,
 * `Pool` and `Agent`, a dispatcher set with `setGlobalDispatcher`, http2, `net.connect`,
 * `tls.connect`) is refused at the socket; and every worker thread started meanwhile gets a guard
 * of its own that refuses everything and reports here. Anything not answered by `handlers` or
 * `allow`ed fails like a network error and is remembered. DNS lookups, UDP and child processes are
 * not intercepted: see docs/recording.md, "What nestcast promises".
 */
export function installNetworkGuard(options: NetworkGuardOptions = {}): NetworkGuard {
  // What workers reported before this guard opened belongs to the guards that were open then.
  workers?.drain();
  const guard: ActiveGuard = { options, escapes: [] };
  active.push(guard);
  if (server === undefined) {
    // Before msw patches fetch: arming may need Node's own fetch once.
    undici = armUndiciRefusal(sink);
    sockets = armConnectRefusal(sink);
    workers = armWorkerThreadGuards(record);
    const created = setupServer(catchAll);
    created.listen({ onUnhandledRequest: 'error' });
    server = created;
    syncBuiltinESMExports();
  }
  refreshHandlers();
  let closed = false;
  return {
    escapes() {
      workers?.drain();
      return [...guard.escapes];
    },
    assertNoEscapes() {
      workers?.drain();
      assertNoNetworkEscapes(guard.escapes);
    },
    close() {
      if (closed) return;
      closed = true;
      workers?.drain();
      active.splice(active.indexOf(guard), 1);
      if (active.length > 0) {
        refreshHandlers();
        return;
      }
      server?.close();
      server = undefined;
      undici?.disarm();
      undici = undefined;
      sockets?.disarm();
      sockets = undefined;
      workers?.disarm();
      workers = undefined;
      syncBuiltinESMExports();
    },
  };
}
