import type { Json } from '../canonical/canonical-json.js';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import type { AuthoredReply } from './authored-reply.js';
import type { RecordedResponse } from '../exchange/recorded-response.js';

/**
 * One model API as nestcast sees it (DESIGN.md section 7, "Wire protocols"). Each protocol is one
 * folder under `toolkit/protocols/` that implements this interface and owns every field name of
 * its API: the threader, normalisation, matching, recording, replay, the model server, the report
 * and interop take a `WireProtocol` and never branch on which one it is.
 */
export interface WireProtocol {
  /** Stable id stored in recordings and shown to users: `chat-completions`, `openai-responses`, … */
  readonly id: ProtocolId;
  /** Human name for messages: `OpenAI chat completions`, `Anthropic Messages`, … */
  readonly title: string;

  /** Is this request a model call of this API? Unmatched calls are opaque HTTP: replayed by exact request, never threaded. */
  matches(request: WireRequest): boolean;

  /** Whether the call asks for a streamed answer (a body field, or the URL: Gemini's `:streamGenerateContent`). */
  streams(request: WireRequest): boolean;

  /**
   * The body field set to `true` to ask for a streamed answer (`stream`), which stored requests
   * leave out; `undefined` when the URL asks instead (Gemini): `export` writes it back only then.
   */
  readonly streamField: string | undefined;

  /** The model a stored request names (a body field, or Gemini's `$url`): what its recording's provenance names. */
  model(body: CanonicalRequest): string | undefined;

  /** How this API's stream ends and is framed, for recorders and renderers. */
  readonly framing: StreamFraming;

  /**
   * The top-level array of the request body that grows from call to call of one session
   * (`messages`, `input`, `contents`): the cassette stores only what each call adds to it.
   * `undefined` when the API has none.
   */
  readonly historyField: string | undefined;

  /**
   * What the request asks in its URL rather than its body (Gemini's model in
   * `models/<model>:generateContent`), never a credential: stored and compared under `$url` in the
   * canonical request, so two calls that differ only there do not match. Absent when the URL asks
   * nothing the body does not (a stored request keeps no other part of the URL).
   */
  urlFields?(url: URL): Readonly<Record<string, Json>>;

  /**
   * The conversation the threader reads, protocol-neutral, from the request body alone: the same
   * messages whether read off the wire or out of a cassette.
   */
  conversation(body: CanonicalRequest): Conversation;

  /**
   * What a request asks besides its conversation, for the report: the tools it offers and every
   * other top-level field (model, temperature, max tokens, tool choice, …) under this API's own
   * name, as stored (stored requests leave the stream flag out).
   */
  requestSummary(body: CanonicalRequest): RequestSummary;

  /** Why a recorded answer ended, in this API's own words (`tool_calls`, `end_turn`, `STOP`, …); `undefined` when it does not say. */
  stopReason(response: RecordedResponse): string | undefined;

  /**
   * The assistant turn a recorded answer becomes in the session's next request (text and tool
   * calls with ids), and its token usage; `undefined` when the response is a failure or carries no
   * answer this API would send back.
   */
  reply(response: RecordedResponse): ReplyOf | undefined;

  /**
   * Whether a recorded answer may hold tool calls, without parsing it (`true` when unsure): replay
   * reads a reply for its tool calls only when a later call needs them or it may have some.
   */
  mayCallTools(response: RecordedResponse): boolean;

  /**
   * Whether a recorded answer certainly has a reply (`reply` would not be `undefined`), told
   * without parsing all of it; `false` when unsure. Threading reads replies lazily, but a call whose
   * answer has no reply is retried in its own session, so an answer this cannot vouch for is parsed
   * at once. It must never say `true` of an answer without a reply.
   */
  surelyReplies(response: RecordedResponse): boolean;

  /** What one streamed event carried, for the report's timeline; `undefined` for bookkeeping events. */
  eventKind(event: { readonly data: string; readonly event?: string }): StreamPhase | undefined;

  /**
   * The path, relative to a base URL, a request of this API is sent to (`chat/completions`,
   * `responses`, `v1/messages`, `v1beta/models/<model>:generateContent`): where `export` files a
   * stored call and what `import` strips to find the base URL. URL-borne fields are read back
   * from the stored request's `$url` (`urlFields`).
   */
  endpoint(body: CanonicalRequest, stream: boolean): string;

  /**
   * The HTTP answer for a replay failure that this API's SDKs surface at once, without retries,
   * carrying the nestcast code and message in the error shape those SDKs read.
   */
  errorResponse(code: string, message: string): WireErrorResponse;

  /**
   * A request of this API whose one user message says `text`, all else fixed: normalisation checks
   * a rule against such requests (it must keep requests that differ only in what the user said apart).
   */
  probe(text: string): Json;

  /** Where keys travel in this API's requests: never stored, never compared. */
  readonly credentials: CredentialPlaces;

  /**
   * An authored turn in this API's wire form, for the request it answers: streamed events when
   * `context.stream`, a JSON body otherwise. Failure turns (HTTP errors, resets, hangs) are the
   * caller's: this renders replies only.
   */
  render(turn: AuthoredReply, context: RenderContext): RecordedResponse;
}

export type ProtocolId = 'chat-completions' | 'openai-responses' | 'anthropic-messages' | 'gemini';

/**
 * A request as every protocol reads it. `body` is the parsed JSON body as sent, transport fields
 * (`stream`) included (`undefined` when it is not a JSON object).
 */
export interface WireRequest {
  readonly method: string;
  readonly url: URL;
  readonly body: CanonicalRequest | undefined;
}

export interface StreamFraming {
  /** `event:` lines name each event (Anthropic, Responses) or not (chat completions, Gemini). */
  readonly namedEvents: boolean;
  /** The data line that ends a stream (`[DONE]`), if the API sends one. */
  readonly sentinel?: string;
  /** Event names (or `type` values) after which the answer is complete: `message_stop`, `response.completed`, … */
  readonly terminalEvents: readonly string[];
}

/**
 * What the threader reads of a request: the messages, oldest first, in one neutral shape. A system
 * prompt that the API keeps apart (`system`, `instructions`, `systemInstruction`) is the first
 * message, role `system`.
 */
export interface Conversation {
  readonly messages: readonly ConversationMessage[];
  /** The API's own continuation handle (`previous_response_id`): the session whose reply carried it. */
  readonly continues?: string;
}

export interface ConversationMessage {
  /** `system`, `user`, `assistant`, `tool` (a message that only answers tool calls). */
  readonly role: string;
  /** The text parts, joined. */
  readonly text: string;
  /** Tool calls this (assistant) message makes, in order. */
  readonly toolCalls?: readonly NeutralToolCall[];
  /** Ids of the tool calls this message answers, in order. */
  readonly answers?: readonly string[];
  /**
   * Each answer's own text, aligned with `answers`, where one message answers several calls
   * (Anthropic's `tool_result` blocks, Gemini's function responses): `text` joins them all.
   */
  readonly answerTexts?: readonly string[];
  /** Canonical JSON of the parts that are neither text nor tool calls nor results (images, files, …). */
  readonly other?: readonly string[];
}

export interface NeutralToolCall {
  /** The API's call id; where the API has none (Gemini), derived from name, arguments and position. */
  readonly id: string;
  readonly name: string;
  /** Canonical JSON of the arguments when they parse, else the text as sent. */
  readonly arguments: string;
}

/** A request's tools and parameters, protocol-neutral (`WireProtocol.requestSummary`). */
export interface RequestSummary {
  readonly tools: readonly ToolDefinition[];
  /** Every top-level field but the conversation and the tools, under the API's name. */
  readonly parameters: Readonly<Record<string, Json>>;
}

/** A tool a request offers the model: a function with its JSON schema, or a built-in tool (named by its type, its settings as `parameters`). */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string | null;
  /** The JSON schema of its arguments (a built-in tool: its entry); `null` when it has none. */
  readonly parameters: Json | null;
}

/** A recorded answer as the next request of its session carries it back. */
export interface ReplyOf {
  readonly message: ConversationMessage & { readonly role: 'assistant' };
  /** The API's id of this answer, where a later request can name it (`previous_response_id`). */
  readonly handle?: string;
  readonly usage?: TokenUsage;
}

export interface TokenUsage {
  readonly input: number;
  readonly output: number;
}

export interface WireErrorResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Json;
}

export interface CredentialPlaces {
  /** Lower-case request header names. */
  readonly headers: readonly string[];
  /** URL query parameter names (Gemini's `key`). */
  readonly query: readonly string[];
}

export interface RenderContext {
  readonly stream: boolean;
  /**
   * The URL the request was sent to, where an API's answer shape depends on more than whether it
   * streams (Gemini's `:streamGenerateContent` without `alt=sse` sends its chunks as one JSON array).
   */
  readonly url?: URL;
  /** The model the request named, echoed where the API echoes it. */
  readonly model: string;
  /** Resolved tool-call ids, one per `turn.toolCalls` entry (protocols without ids ignore them). */
  readonly toolCallIds: readonly string[];
  /** A stable id stem for this answer, the same on every run; each protocol adds its prefix (`chatcmpl-…`, `msg_…`, `resp_…`). */
  readonly answerId: string;
  /** Delay stored on every streamed event, in ms. */
  readonly eventDelay: number;
}

/** What a stretch of a streamed answer carried. */
export type StreamPhase = 'reasoning' | 'text' | 'tool-call';
