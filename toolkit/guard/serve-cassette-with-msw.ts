import type { RequestHandler } from 'msw';
import { http } from 'msw/core/http';
import { CassetteError } from '../errors/cassette-error.js';
import type { Cassette } from '../cassette/types.js';
import { failureResponse } from '../replay/failure-response.js';
import { createReplayingFetch, type ReplayingFetch, type ReplayOptions } from '../replay/replaying-fetch.js';

export interface MswCassetteOptions extends ReplayOptions {
  /** The client's base URL, e.g. `https://api.deepseek.com`: `POST <baseUrl>/chat/completions` is served. */
  readonly baseUrl: string;
}

export interface MswCassette {
  /** Pass to `installNetworkGuard({ handlers })` (or your own `setupServer`). */
  readonly handlers: readonly RequestHandler[];
  /** The replay behind the handlers: call `assertConsumed()` at the end of the run. */
  readonly replay: ReplayingFetch;
}

/**
 * Serves a cassette through msw for code whose fetch cannot be injected. Same replay as the
 * injected fetch; replay errors come back as the replaying fetch answers them, HTTP 422 with an
 * OpenAI-shaped JSON error (and stay in `replay.report()`), recorded network failures as network
 * errors.
 */
export function serveCassetteWithMsw(cassette: Cassette, options: MswCassetteOptions): MswCassette {
  const replay = createReplayingFetch(cassette, options);
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const handler = http.post(endpoint, async ({ request }) => {
    try {
      return await replay(request);
    } catch (error) {
      if (error instanceof CassetteError) return failureResponse(error);
      return Response.error();
    }
  });
  return { handlers: [handler], replay };
}
