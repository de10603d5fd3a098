import type { Json } from '../canonical/canonical-json.js';
import { requestContent } from '../canonical/canonical-request.js';
import type { RecordedResponse } from '../cassette/types.js';
import { replyOfResponse } from './reply-of-response.js';
import { Threader } from './threader.js';
import type { AmbiguousChild, Placement } from './types.js';

/** One call of a flat log (a HAR file, nock or Polly fixtures): the request body and what came back. */
export interface FlatCall {
  /** The request body: its text, or the parsed JSON. */
  readonly request: string | Json;
  readonly response: RecordedResponse;
  /** The session the call names itself (an `x-session-lineage` header the fixture kept): it always wins. */
  readonly explicitLineage?: string;
}

export interface ThreadedCalls {
  /** The derived lineage of each call, in the order given. */
  readonly lineages: readonly string[];
  readonly ambiguities: readonly AmbiguousChild[];
}

/**
 * Derives the session of each call of a flat list in call order, the way the recording fetch
 * threads live calls: what an importer needs to file foreign fixtures by lineage.
 */
export function threadCalls(calls: readonly FlatCall[]): ThreadedCalls {
  const threader = new Threader();
  const lineages = calls.map((call) => {
    const input = threader.input(messagesOf(call.request));
    const placement = call.explicitLineage === undefined ? threader.place(input) : undefined;
    const lineage = call.explicitLineage ?? (placement as Placement).lineage;
    threader.commit(lineage, input, placement);
    threader.settle(lineage, replyOfResponse(call.response));
    return lineage;
  });
  return { lineages, ambiguities: threader.ambiguities() };
}

/** The `messages` of a request body; none for a body that is not a chat request. */
export function messagesOf(request: string | Json): readonly Json[] {
  const body = typeof request === 'string' ? requestContent(request) : request;
  const messages = body !== null && typeof body === 'object' && !Array.isArray(body) ? body['messages'] : undefined;
  return Array.isArray(messages) ? messages : [];
}
