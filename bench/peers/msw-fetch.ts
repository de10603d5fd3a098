import { http, HttpResponse } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { frameStream, SSE_HEADERS } from '../fixtures/stream-50.js';

/** The base URL the msw handler answers; no such host exists. */
export const MSW_BASE_URL = 'http://msw.bench.test/v1';

/**
 * An msw handler serving the same SSE frames, the way a suite mocks a streaming endpoint with
 * msw today. msw patches the global fetch while it listens: the consumer must call the global
 * fetch at call time, and other subjects must hold the unpatched one.
 */
export function mswServer(): SetupServer {
  return setupServer(
    http.post(
      `${MSW_BASE_URL}/chat/completions`,
      () => new HttpResponse(frameStream(), { status: 200, headers: SSE_HEADERS }),
    ),
  );
}

/** The global fetch as it is at call time: msw's interceptor while msw listens. */
export const globalFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);
