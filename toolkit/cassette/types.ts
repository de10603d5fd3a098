import type { Json } from '../canonical/canonical-json.js';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import type { NormalisationRule } from '../normalisation/types.js';
import type { AuthoredReply } from '../protocols/authored-reply.js';
import type { CallProtocol } from '../protocols/registry.js';
import type { RecordedResponse } from '../exchange/recorded-response.js';

export type {
  BodyResponse,
  CallFailure,
  PartialResponse,
  RecordedResponse,
  SseEvent,
  StreamedResponse,
} from '../exchange/recorded-response.js';

/** One model call: the full canonical request (`null`: any request matches) and what came back. */
export interface CassetteCall {
  readonly request: CanonicalRequest | null;
  readonly response: RecordedResponse;
  /** The model API the call spoke (`http`: none claimed it, never threaded). Default: `chat-completions`. */
  readonly protocol?: CallProtocol;
  /**
   * An authored turn (in memory only), served in the wire form of the protocol of the request it
   * answers, `response` being its chat-completions form: a reply, or the text a failure streams
   * before its connection drops or hangs (`partial`).
   */
  readonly authored?: AuthoredAnswer;
}

/** An authored turn and what makes its rendering stable: the same bytes on every run. */
export interface AuthoredAnswer {
  readonly turn: AuthoredReply;
  readonly model: string;
  readonly toolCallIds: readonly string[];
  readonly answerId: string;
  readonly eventDelay: number;
  /** The turn is the text of a failure's partial stream (`response.error.partial`), not a whole answer. */
  readonly partial?: true;
}

export interface Provenance {
  /** `recorded` from an API (or a model server), `authored` from a script. */
  readonly source: 'recorded' | 'authored';
  /** Host the calls were recorded from, e.g. `api.deepseek.com` or `127.0.0.1:41234`. */
  readonly host?: string;
  /**
   * The base URL the client was configured with, which replay gives the client again, so that
   * anything derived from it (an error message quoting the URL) is the same in both runs. For a
   * recording made against `nestcast model-server` it is a stable stand-in, not the server's port.
   */
  readonly baseUrl?: string;
  /** The foreign fixture the calls were imported from (`nestcast import`): its chunk timing is unknown (delays 0). */
  readonly importedFrom?: 'nock' | 'polly' | 'har';
  /** Model named by the first request. */
  readonly model?: string;
  /** For a recording made from a scenario's authored script: that script's `scriptFingerprint`. */
  readonly scriptFingerprint?: string;
  /** ISO 8601 time of the recording; kept when a re-record changes nothing. */
  readonly recordedAt: string;
  /** `nestcast <version>` that wrote the cassette. */
  readonly recorder: string;
}

/** A cassette in memory: calls per lineage, in call order. */
export interface Cassette {
  readonly provenance: Provenance;
  readonly calls: Readonly<Record<string, readonly CassetteCall[]>>;
  /** Declarative rules every request was normalised with at record time; replay applies them too. */
  readonly normalise?: readonly NormalisationRule[];
  /** Children whose parent tool call the recorder could not tell apart (AMBIGUOUS_CHILD). */
  readonly ambiguities?: readonly RecordedAmbiguity[];
  /** The folder it was loaded from, for messages. */
  readonly location?: string;
}

export const CASSETTE_FORMAT = 'nestcast-cassette';
export const CASSETTE_VERSION = 1;

/** A tool call a session's model asked for: the place a child session hangs from. */
export interface ToolCallRef {
  /** The session whose reply holds the call. */
  readonly lineage: string;
  readonly id: string;
  readonly name: string;
}

/** A derived child that matched several open tool calls equally; filed under the first. */
export interface RecordedAmbiguity {
  readonly lineage: string;
  readonly candidates: readonly ToolCallRef[];
}

/** `meta.json`. */
export interface CassetteMeta {
  readonly format: typeof CASSETTE_FORMAT;
  readonly version: typeof CASSETTE_VERSION;
  readonly provenance: Provenance;
  /** Every lineage with a calls file, sorted. Authoritative: files not listed are ignored. */
  readonly lineages: readonly string[];
  readonly normalise?: readonly NormalisationRule[];
  readonly ambiguities?: readonly RecordedAmbiguity[];
}

/** A request as stored on a call line: enough to rebuild the full request from the lineage's earlier lines. */
export interface StoredRequest {
  /** sha256 of the canonical full request: lets a diff show which requests changed. */
  readonly fingerprint: string;
  /** One human line: model, message count, tools, last message. */
  readonly summary: string;
  /** The request without its history field (`messages`, `input`, …); omitted when equal to the previous call's. */
  readonly base?: CanonicalRequest;
  /** Items appended to the history field since this lineage's previous call; absent when the request has no such array. */
  readonly added?: readonly Json[];
  /** The history is not an extension of the previous call's: `added` holds all of it. */
  readonly reset?: true;
}

/** One line of `calls/<lineage>.jsonl`. */
export interface CallLine {
  readonly lineage: string;
  readonly call: number;
  /** Left out for chat completions, the default (every cassette written before protocols were stored). */
  readonly protocol?: CallProtocol;
  readonly request: StoredRequest | null;
  readonly response: RecordedResponse;
}
