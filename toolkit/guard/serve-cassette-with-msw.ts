import { http, HttpResponse, type RequestHandler } from 'msw';
import { CassetteError } from '../cassette/cassette-error.js';
import type { Cassette } from '../cassette/types.js';
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

const STATUS_BY_CODE: Partial<Record<string, number>> = { UNRECORDED_SESSION: 404, CASSETTE_EXHAUSTED: 409, REQUEST_MISMATCH: 400 };

/**
 * Serves a cassette through msw for code whose fetch cannot be injected. Same replay as the
 * injected fetch; replay errors come back as OpenAI-shaped JSON errors (and stay in
 * `replay.report()`), recorded network failures as network errors.
 */
export function serveCassetteWithMsw(cassette: Cassette, options: MswCassetteOptions): MswCassette {
  const replay = createReplayingFetch(cassette, options);
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const handler = http.post(endpoint, async ({ request }) => {
    try {
      return await replay(request);
    } catch (error) {
      if (error instanceof CassetteError) {
        return HttpResponse.json(
          { error: { message: error.message, type: 'nestcast_replay_error', code: error.code, param: null } },
          { status: STATUS_BY_CODE[error.code] ?? 500 },
        );
      }
      return HttpResponse.error();
    }
  });
  return { handlers: [handler], replay };
}
