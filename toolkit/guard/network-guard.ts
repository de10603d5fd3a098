import { http, HttpResponse, passthrough, type RequestHandler } from 'msw';
import { syncBuiltinESMExports } from 'node:module';
import { setupServer } from 'msw/node';
import { CassetteError } from '../cassette/cassette-error.js';

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
  /** Removes the interception. */
  close(): void;
}

/**
 * Replay mode's guard: global fetch, node:http/https and XMLHttpRequest are intercepted with msw
 * (also for ESM code that imported `request` from 'node:http' by name), and
 * any request not answered by `handlers` or `allow`ed fails like a network error and is
 * remembered. An API key in the environment is therefore harmless: no request carrying it leaves.
 */
export function installNetworkGuard(options: NetworkGuardOptions = {}): NetworkGuard {
  const escapes: NetworkEscape[] = [];
  const catchAll = http.all('*', ({ request }) => {
    const url = new URL(request.url);
    if (options.allow?.(url)) return passthrough();
    escapes.push({ method: request.method, url: `${url.origin}${url.pathname}` });
    return HttpResponse.error();
  });
  const server = setupServer(...(options.handlers ?? []), catchAll);
  server.listen({ onUnhandledRequest: 'error' });
  syncBuiltinESMExports();
  return {
    escapes: () => [...escapes],
    assertNoEscapes() {
      if (escapes.length === 0) return;
      const list = escapes.map((escape) => `  ${escape.method} ${escape.url}`).join('\n');
      throw new CassetteError(
        'NETWORK_ESCAPE',
        `${escapes.length} request${escapes.length === 1 ? '' : 's'} tried to reach the network during replay, which replay mode forbids (query strings omitted):\n${list}\n` +
          'Each was failed as a network error. Serve model calls from the cassette: inject the replaying fetch into the client ' +
          '(createReplayingFetch), or serve the cassette through msw (serveCassetteWithMsw) for code whose fetch cannot be injected. ' +
          'To let a host through on purpose, pass installNetworkGuard({ allow }).',
      );
    },
    close() {
      server.close();
      syncBuiltinESMExports();
    },
  };
}
