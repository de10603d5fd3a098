import type { WireErrorResponse } from '../wire-protocol.js';

/**
 * A replay failure as Google's error body (`{error: {code, message, status}}`), the nestcast code
 * also as an `ErrorInfo` reason. `@google/genai` throws an `ApiError` with this body at once: it
 * retries only when the caller sets retry options, and then only 408, 429 and 5xx.
 */
export function errorResponse(code: string, message: string): WireErrorResponse {
  return {
    status: 422,
    headers: { 'content-type': 'application/json; charset=UTF-8', 'x-nestcast-error': code },
    body: {
      error: {
        code: 422,
        message: `${code}: ${message}`,
        status: 'FAILED_PRECONDITION',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: code, domain: 'nestcast' }],
      },
    },
  };
}
