import type { WireErrorResponse } from '../wire-protocol.js';

/**
 * 422: the `openai` SDK retries 408, 409, 429 and 5xx, never a 422, so its `APIError` reaches the
 * caller at once, carrying `error.message` (the nestcast code and message) and `error.code`.
 */
export function responsesErrorResponse(code: string, message: string): WireErrorResponse {
  return {
    status: 422,
    headers: { 'content-type': 'application/json' },
    body: { error: { message: `${code}: ${message}`, type: 'nestcast_replay_error', code, param: null } },
  };
}
