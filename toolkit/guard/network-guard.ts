import { RequestController, type HttpRequestEventMap } from '@mswjs/interceptors';
import type { RequestHandler } from 'msw';
import { syncBuiltinESMExports } from 'node:module';
import { optionKeys } from '../../harness/option-keys.js';
import { refuseUnknownOptions } from '../errors/cassette-error.js';
import { armConnectRefusal, type ConnectRefusal } from './connect-refusal.js';
import { assertNoNetworkEscapes } from './assert-no-network-escapes.js';
import { requestEscape, type EscapeSink, type NetworkEscape } from './network-escape.js';
import { listenToRequests } from './shared-interceptors.js';
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

const GUARD_OPTION_KEYS = optionKeys<NetworkGuardOptions>({ allow: true, handlers: true });

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

/** Open guards, innermost last. One interception serves them all, so closing one never disarms another. */
const active: ActiveGuard[] = [];
let stopListening: (() => void) | undefined;
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

/** What msw's `bypass()` puts on a request a handler sends on: msw's handlers never see it again. */
const BYPASS = 'msw/passthrough';

type RequestEvent = HttpRequestEventMap['request'][0];

/**
 * Every request the interceptors catch: answered by the open guards' msw handlers (innermost
 * first), else let through when allowed, else recorded and failed like a network error. A
 * handler's `passthrough()`, and a request it sends on with `bypass()`, are judged like any other.
 * The interceptors are shared by every msw server in the process (a test's own `setupServer`
 * listens on them too, in the order the two started): what another listener answered never left,
 * and a request is refused only once every listener has had its turn.
 */
async function onRequest(this: unknown, { request, requestId, controller }: RequestEvent): Promise<void> {
  if (answeredElsewhere(controller)) return;
  const accept = request.headers.get('accept');
  if (accept?.includes(BYPASS)) {
    const rest = accept.replace(/(,\s*)?msw\/passthrough/, '');
    if (rest === '') request.headers.delete('accept');
    else request.headers.set('accept', rest);
  } else {
    const answer = await handlerAnswer(request, requestId);
    if (answer !== undefined) return controller.respondWith(answer);
  }
  const url = new URL(request.url);
  if (mayLeave(url)) return;
  const refuse = () => {
    record(requestEscape(request.method, url));
    controller.respondWith(Response.error());
  };
  if (!listenersFollow(this)) return refuse();
  // Another listener may still answer it: refuse it where the interceptor would send it on.
  controller.passthrough = async () => refuse();
}

/** Another listener on the shared interceptors (a test's own msw server) already answered or failed it. */
function answeredElsewhere(controller: RequestController): boolean {
  // A controller made by an older copy of the interceptors (a user's msw started first) may have no readyState.
  return controller.readyState !== undefined && controller.readyState !== RequestController.PENDING;
}

/** Whether request listeners registered after this guard's (an msw server started later) are still to run. */
function listenersFollow(emitter: unknown): boolean {
  if (typeof (emitter as { listeners?: unknown } | undefined)?.listeners !== 'function') return false;
  const listeners = (emitter as { listeners(event: 'request'): unknown[] }).listeners('request');
  return listeners.indexOf(onRequest) < listeners.length - 1;
}

/**
 * The response of the first msw handler that answers, as msw's own lookup runs them
 * (`RequestHandler.run`, the first result with a response wins). msw's `getResponse` does the
 * same, but only msw's main entry exports it, and that entry loads its GraphQL support and the
 * `graphql` package: about 185 ms in every process that serves a cassette through msw.
 */
async function handlerAnswer(request: Request, requestId: string): Promise<Response | undefined> {
  for (const guard of [...active].reverse()) {
    for (const handler of guard.options.handlers ?? []) {
      const result = await handler.run({ request, requestId });
      const response = result?.response;
      if (response === undefined) continue;
      return isPassthrough(response) ? undefined : response;
    }
  }
  return undefined;
}

/** msw's `passthrough()`: the handler lets the request go on. */
function isPassthrough(response: Response): boolean {
  return response.status === 302 && response.headers.get('x-msw-intention') === 'passthrough';
}

/**
 * Replay mode's guard: global fetch, node:http/https and XMLHttpRequest are intercepted with
 * msw's interception library, `@mswjs/interceptors`, which msw's `setupServer` runs on (also for
 * ESM code that imported `request` from 'node:http' by name, or captured `fetch` once the guard
 * was armed); requests through undici's global dispatcher (the npm `undici` package imported
 * directly, and a WebSocket's opening handshake) are refused by name; every TCP connection below
 * them (undici's own `Client`, `Pool` and `Agent`, a dispatcher set with `setGlobalDispatcher`,
 * http2, `net.connect`, `tls.connect`) is refused at the socket; and every worker thread started
 * meanwhile gets a guard of its own that refuses everything and reports here. Anything not
 * answered by `handlers` or `allow`ed fails like a network error and is remembered. DNS lookups,
 * UDP and child processes are not intercepted: see docs/recording.md, "What nestcast promises".
 */
export function installNetworkGuard(options: NetworkGuardOptions = {}): NetworkGuard {
  // Refused before anything is patched: with `{ handler: [...] }` its mocks would never answer, and
  // their calls would be listed as escapes.
  refuseUnknownOptions('installNetworkGuard', options, GUARD_OPTION_KEYS);
  // What workers reported before this guard opened belongs to the guards that were open then.
  workers?.drain();
  const guard: ActiveGuard = { options, escapes: [] };
  active.push(guard);
  if (stopListening === undefined) {
    // Before the interceptors patch fetch: arming may need Node's own fetch once.
    undici = armUndiciRefusal(sink);
    sockets = armConnectRefusal(sink);
    workers = armWorkerThreadGuards(record);
    stopListening = listenToRequests(onRequest);
    // ESM code that imported `Worker` from 'node:worker_threads' by name gets the guarded one.
    syncBuiltinESMExports();
  }
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
      if (active.length > 0) return;
      stopListening?.();
      stopListening = undefined;
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
