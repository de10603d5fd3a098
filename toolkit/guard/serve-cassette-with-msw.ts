import type { RequestHandler } from 'msw';
import { http } from 'msw/core/http';
import { readRequest } from '../canonical/canonical-request.js';
import { CassetteError } from '../errors/cassette-error.js';
import type { Cassette } from '../cassette/types.js';
import { protocolOf } from '../protocols/registry.js';
import { failureResponse } from '../replay/failure-response.js';
import { createReplayingFetch, type ReplayingFetch, type ReplayOptions } from '../replay/replaying-fetch.js';

export interface MswCassetteOptions extends ReplayOptions {
  /**
   * The client's base URL, e.g. `https://api.deepseek.com`: every model call under it that a wire
   * protocol claims (`POST <baseUrl>/chat/completions`, `POST <baseUrl>/responses`, …) is served.
   */
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
 * injected fetch; replay errors come back as the replaying fetch answers them, in the error shape
 * of the call's protocol (and stay in `replay.report()`), recorded network failures as network
 * errors. A request under the base URL that no protocol claims is left to other handlers.
 */
export function serveCassetteWithMsw(cassette: Cassette, options: MswCassetteOptions): MswCassette {
  const { baseUrl, ...replayOptions } = options;
  const replay = createReplayingFetch(cassette, replayOptions);
  const handler = http.all(`${baseUrl.replace(/\/+$/, '')}/*`, async ({ request }) => {
    const url = new URL(request.url);
    const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
    const protocol = protocolOf({ method: request.method, url, body: readRequest(body).sent });
    if (!protocol) return undefined;
    try {
      return await replay(request);
    } catch (error) {
      if (error instanceof CassetteError) return failureResponse(error, protocol);
      return Response.error();
    }
  });
  return { handlers: [handler], replay };
}
