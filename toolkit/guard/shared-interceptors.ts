import { getGlobalSymbol, type HttpRequestEventMap, type Interceptor } from '@mswjs/interceptors';
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { XMLHttpRequestInterceptor } from '@mswjs/interceptors/XMLHttpRequest';
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import { plainOptionsAround } from './plain-request-options.js';

export type RequestListener = (...event: HttpRequestEventMap['request']) => Promise<void>;

type HttpInterceptor = Interceptor<HttpRequestEventMap>;

/** node:http(s), XMLHttpRequest and the global fetch, each patched by one interceptor per process. */
const KINDS = [ClientRequestInterceptor, XMLHttpRequestInterceptor, FetchInterceptor] as const;

/** What each kind replaces, to tell whether another library has since patched over it. */
const PATCHED: ReadonlyMap<symbol, () => readonly unknown[]> = new Map([
  [ClientRequestInterceptor.symbol, () => [http.ClientRequest, http.request, http.get, https.request, https.get]],
  [XMLHttpRequestInterceptor.symbol, () => [Reflect.get(globalThis, 'XMLHttpRequest')]],
  [FetchInterceptor.symbol, () => [globalThis.fetch]],
]);

interface Applied {
  readonly interceptor: HttpInterceptor;
  /** What it patched in, as it left them. */
  readonly patched: readonly unknown[];
  /** Takes away what was wrapped around it (`plain-request-options.ts`), once it is disposed. */
  readonly unwrap: (() => void) | undefined;
  /**
   * Kept applied from then on: another interceptor (an msw server's) has listened on it, or
   * another library has patched over it.
   */
  kept: boolean;
}

/** The interceptors this module applied, by kind. */
const applied = new Map<symbol, Applied>();
/** The listeners given to `listenToRequests`; any other listener on an interceptor here is another's. */
const ours = new Set<unknown>();

/**
 * Listens to every request of node:http(s), XMLHttpRequest and the global fetch, beside any msw
 * server in the process; returns the function that stops listening.
 *
 * `@mswjs/interceptors` lets one interceptor per kind patch the process, registered on
 * `globalThis`. An interceptor applied while another is registered listens through that one for
 * good (msw's, which every `setupServer` of a process shares, included), and whichever is disposed
 * first unregisters it for all. So this listens on the interceptor a test's own msw server already
 * runs and never disposes it; one it applied itself it registers again when a server listening on
 * it unregisters it, disposes when no listener is left, and keeps applied once another has
 * listened on it: that one would otherwise listen on a disposed interceptor the next time it
 * starts, and its mocks would silently stop. Nor is it disposed once another library (nock, on its
 * own copy of the interceptors) has patched over it: putting back what was there before would
 * remove that library's patch with it.
 */
export function listenToRequests(listener: RequestListener): () => void {
  ours.add(listener);
  const targets = KINDS.map((Kind) => {
    const target =
      getGlobalSymbol<HttpInterceptor>(Kind.symbol) ?? applied.get(Kind.symbol)?.interceptor ?? apply(Kind);
    target.on('request', listener);
    return target;
  });
  let listening = true;
  return () => {
    if (!listening) return;
    listening = false;
    for (const target of targets) target.off('request', listener);
    ours.delete(listener);
    for (const Kind of KINDS) disposeIfUnused(Kind.symbol);
  };
}

function apply(Kind: (typeof KINDS)[number]): HttpInterceptor {
  const interceptor: HttpInterceptor = new Kind();
  let unwrap: (() => void) | undefined;
  if (Kind === ClientRequestInterceptor) unwrap = plainOptionsAround(() => interceptor.apply());
  else interceptor.apply();
  // ESM code that imported `request` from 'node:http' by name gets the patched one.
  syncBuiltinESMExports();
  const entry: Applied = { interceptor, patched: patchedNow(Kind.symbol), unwrap, kept: false };
  applied.set(Kind.symbol, entry);
  const emitter = emitterOf(interceptor);
  // A server listening on it removes its listeners as it closes, just after unregistering it.
  emitter.on('removeListener', () => {
    if (getGlobalSymbol(Kind.symbol) === undefined) Reflect.set(globalThis, Kind.symbol, interceptor);
    disposeIfUnused(Kind.symbol);
  });
  // Last, so that it never sees the hooks above.
  emitter.on('newListener', (_event, added) => {
    if (!ours.has(added)) entry.kept = true;
  });
  return interceptor;
}

function disposeIfUnused(symbol: symbol): void {
  const entry = applied.get(symbol);
  if (entry === undefined || entry.kept || emitterOf(entry.interceptor).listenerCount('request') > 0) return;
  // Another library (nock, on its own copy of the interceptors) patched over it: restoring what was
  // there before would silently remove that library's patch too, so it stays, passing requests on.
  if (patchedNow(symbol).some((value, index) => value !== entry.patched[index])) {
    entry.kept = true;
    return;
  }
  applied.delete(symbol);
  // dispose() restores the patch only while its interceptor is the registered one.
  const registered = getGlobalSymbol(symbol);
  Reflect.set(globalThis, symbol, entry.interceptor);
  entry.interceptor.dispose();
  entry.unwrap?.();
  if (registered !== undefined && registered !== entry.interceptor) Reflect.set(globalThis, symbol, registered);
  syncBuiltinESMExports();
}

function patchedNow(symbol: symbol): readonly unknown[] {
  return PATCHED.get(symbol)?.() ?? [];
}

interface InterceptorEmitter {
  on(event: 'newListener', listener: (event: string, added: unknown) => void): void;
  on(event: 'removeListener', listener: () => void): void;
  listenerCount(event: 'request'): number;
}

/** The interceptor's event emitter: protected in its types, the one place its listeners are counted and seen come and go. */
function emitterOf(interceptor: HttpInterceptor): InterceptorEmitter {
  return (interceptor as unknown as { emitter: InterceptorEmitter }).emitter;
}
