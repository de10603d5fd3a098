import type { Json } from '../canonical/canonical-json.js';
import { requestContent, type CanonicalRequest } from '../canonical/canonical-request.js';
import type { RecordedResponse } from '../cassette/types.js';
import { protocolById, type CallProtocol } from '../protocols/registry.js';
import type { Conversation, WireProtocol } from '../protocols/wire-protocol.js';
import { Threader, type ReplySource } from './threader.js';
import type { AmbiguousChild, Placement } from './types.js';

/** One call of a flat log (a HAR file, nock or Polly fixtures): the request body and what came back. */
export interface FlatCall {
  /** The request body: its text, or the parsed JSON. */
  readonly request: string | Json;
  readonly response: RecordedResponse;
  /** The session the call names itself (an `x-session-lineage` header the fixture kept): it always wins. */
  readonly explicitLineage?: string;
  /** The model API the call spoke (`http`: none, never threaded). Default: chat completions. */
  readonly protocol?: CallProtocol;
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
    const protocol = protocolById(call.protocol);
    const body = typeof call.request === 'string' ? requestContent(call.request) : call.request;
    const input = threader.input(conversationOf(protocol, body));
    const placement = call.explicitLineage === undefined ? threader.place(input) : undefined;
    const lineage = call.explicitLineage ?? (placement as Placement).lineage;
    threader.commit(lineage, input, placement);
    threader.settle(lineage, replyOf(protocol, call.response));
    return lineage;
  });
  return { lineages, ambiguities: threader.ambiguities() };
}

const NO_CONVERSATION: Conversation = { messages: [] };

/** What the threader reads of a request: its protocol's conversation; none for an opaque call or a body that is not an object. */
export function conversationOf(protocol: WireProtocol | undefined, body: Json | CanonicalRequest): Conversation {
  if (!protocol || body === null || typeof body !== 'object' || Array.isArray(body)) return NO_CONVERSATION;
  return protocol.conversation(body);
}

/** Recorded answers are immutable: each is read at most once, by whichever of these asks first. */
const replies = new WeakMap<RecordedResponse, ReplySource>();

/**
 * A recorded answer as the threader reads it, the one way recording, replay and importers all read
 * it, so they file every call alike: `undefined` for a failure, an opaque call, or an answer with
 * no reply (its session's next call retries it). An answer its protocol vouches has a reply is
 * parsed only when a later call needs it (most never are), with whether it may ask for tools told
 * from its text; any other is parsed at once to tell whether it has one.
 */
export function replyOf(protocol: WireProtocol | undefined, response: RecordedResponse): ReplySource {
  if ('error' in response || !protocol) return undefined;
  if (replies.has(response)) return replies.get(response);
  let source: ReplySource;
  if (protocol.surelyReplies(response)) {
    let parsed: { reply: ReturnType<WireProtocol['reply']> } | undefined;
    source = {
      load: () => (parsed ??= { reply: protocol.reply(response) }).reply,
      mayAskForTools: protocol.mayCallTools(response),
    };
  } else source = protocol.reply(response);
  replies.set(response, source);
  return source;
}
