import type { CassetteError } from '../errors/cassette-error.js';
import { errorResponseOf } from '../protocols/registry.js';
import type { WireProtocol } from '../protocols/wire-protocol.js';

/**
 * A replay failure as the error answer of the call's protocol: a status its SDKs never retry and
 * the body they read, so every client that shows the API's error message shows ours, at once.
 */
export function failureResponse(error: CassetteError, protocol: WireProtocol | undefined): Response {
  const answer = errorResponseOf(protocol, error.code, error.message);
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { ...answer.headers, 'x-nestcast-error': error.code },
  });
}
