import type { WireErrorResponse } from '../wire-protocol.js';

/**
 * A replay failure as Anthropic's error body. 422 is a status the Anthropic SDK never retries (it
 * retries 408, 409, 429 and 5xx), and `x-should-retry: false` says so outright, which the SDK
 * obeys before looking at the status: the caller sees the nestcast code at once.
 */
export function errorResponse(code: string, message: string): WireErrorResponse {
  return {
    status: 422,
    headers: { 'content-type': 'application/json', 'x-should-retry': 'false', 'x-nestcast-error': code },
    body: { type: 'error', error: { type: 'nestcast_replay_error', message: `${code}: ${message}` } },
  };
}
