import type { WireErrorResponse } from '../wire-protocol.js';

/** 422: a status the `openai` SDK (and every OpenAI-compatible client we tried) never retries. */
const FAILURE_STATUS = 422;

/** An OpenAI-shaped error body: every client that shows `error.message` shows the nestcast code and message. */
export function chatErrorResponse(code: string, message: string): WireErrorResponse {
  return {
    status: FAILURE_STATUS,
    headers: { 'content-type': 'application/json' },
    body: { error: { message: `${code}: ${message}`, type: 'nestcast_replay_error', code, param: null } },
  };
}
