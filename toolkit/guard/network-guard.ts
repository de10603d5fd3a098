import type { RequestHandler } from 'msw';
import { http } from 'msw/core/http';
import { syncBuiltinESMExports } from 'node:module';
import { setupServer, type SetupServer } from 'msw/node';
import { CassetteError } from '../errors/cassette-error.js';
import { armUndiciRefusal, type UndiciRefusal } from './undici-refusal.js';

export interface NetworkGuardOptions {
  /** Requests allowed to reach the network on purpose (a loopback server the test starts, say). */
  readonly allow?: (url: URL) => boolean;
  /** msw handlers that answer requests (e.g. `serveCassetteWithMsw(...).handlers`); what they answer is not an escape. */
  readonly handlers?: readonly RequestHandler[];
}

/** A request that tried to leave the process. The query string is never kept: it may carry a key. */
export interface NetworkEscape {
  readonly method: string;
  readonly url: string;
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

/** A request leaves only if every open guard allows it; otherwise every open guard records it. */
function mayLeave(url: URL): boolean {
  return active.every((guard) => guard.options.allow?.(url) === true);
}

function recordEscape(method: string, url: URL): void {
  for (const guard of active) guard.escapes.push({ method, url: `${url.origin}${url.pathname}` });
}

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
  recordEscape(request.method, url);
  return Response.error();
});

/** Handlers of the innermost guard answer first. */
function refreshHandlers(): void {
  server?.resetHandlers(...[...active].reverse().flatMap((guard) => guard.options.handlers ?? []), catchAll);
}

/**
 * Throws NETWORK_ESCAPE listing `escapes`, if there are any: what a guard's `assertNoEscapes` throws,
 * also for escapes another process's guard saw (a `run --workers` worker reports its own).
 */
export function assertNoNetworkEscapes(escapes: readonly NetworkEscape[]): void {
  if (escapes.length === 0) return;
  const list = escapes.map((escape) => `  ${escape.method} ${escape.url}`).join('\n');
  throw new CassetteError(
    'NETWORK_ESCAPE',
    `${escapes.length} request${escapes.length === 1 ? '' : 's'} tried to reach the network during replay, which replay mode forbids (query strings omitted):\n${list}\n` +
      'Each was failed as a network error. Serve model calls from the cassette: inject the replaying fetch into the client ' +
      '(createReplayingFetch), or serve the cassette through msw (serveCassetteWithMsw) for code whose fetch cannot be injected. ' +
      'To let a host through on purpose, pass installNetworkGuard({ allow }).',
  );
}

/**
 * Replay mode's guard: global fetch, node:http/https and XMLHttpRequest are intercepted with msw
 * (also for ESM code that imported `request` from 'node:http' by name, or captured `fetch` once
 * the guard was armed), and requests through undici's global dispatcher (the npm `undici`
 * package imported directly) are refused; any request not answered by `handlers` or `allow`ed
 * fails like a network error and is remembered. Raw sockets (`net.connect`), DNS lookups and child
 * processes are not intercepted: see docs/recording.md, "What nestcast promises".
 */
export function installNetworkGuard(options: NetworkGuardOptions = {}): NetworkGuard {
  const guard: ActiveGuard = { options, escapes: [] };
  active.push(guard);
  if (server === undefined) {
    // Before msw patches fetch: arming may need Node's own fetch once.
    undici = armUndiciRefusal({ mayLeave, recordEscape });
    const created = setupServer(catchAll);
    created.listen({ onUnhandledRequest: 'error' });
    server = created;
    syncBuiltinESMExports();
  }
  refreshHandlers();
  let closed = false;
  return {
    escapes: () => [...guard.escapes],
    assertNoEscapes() {
      assertNoNetworkEscapes(guard.escapes);
    },
    close() {
      if (closed) return;
      closed = true;
      active.splice(active.indexOf(guard), 1);
      if (active.length > 0) {
        refreshHandlers();
        return;
      }
      server?.close();
      server = undefined;
      undici?.disarm();
      undici = undefined;
      syncBuiltinESMExports();
    },
  };
}
