/** A tool call the scripted model makes. `args` is an object (sent as JSON) or the exact argument text. */
export interface AuthoredToolCall {
  /** Default: `call_<8 hex of the lineage's hash>_<n>`, n counting this session's tool calls from 1. */
  readonly id?: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>> | string;
}

/** One model answer. Reasoning streams first, then text, then tool calls. */
export interface AuthoredReply {
  readonly text?: string;
  readonly reasoning?: string;
  readonly toolCalls?: readonly AuthoredToolCall[];
  /** OpenAI finish_reason. Default: `tool_calls` when there are tool calls, else `stop`. */
  readonly finish?: string;
  /** Token counts for the usage chunk. Default: prompt 0, completion = number of deltas. */
  readonly usage?: { readonly prompt: number; readonly completion: number };
}

/** The server answers this call with an HTTP error. An object body is sent as JSON. */
export interface AuthoredHttpError {
  readonly httpError: {
    readonly status: number;
    readonly body: string | Readonly<Record<string, unknown>>;
    readonly headers?: Readonly<Record<string, string>>;
  };
}

/** The connection drops: before any response, or after streaming `text` (default `"…"`). */
export interface AuthoredNetworkError {
  readonly networkError: 'reset-before-response' | 'reset-mid-stream';
  readonly text?: string;
}

/**
 * The model streams `text` (maybe empty) and then says nothing more until the caller gives up:
 * a child that is still working when it is cancelled or killed.
 */
export interface AuthoredHang {
  readonly hang: { readonly text?: string };
}

export type AuthoredTurn = AuthoredReply | AuthoredHttpError | AuthoredNetworkError | AuthoredHang;

/** What the model says in each session: per lineage, one turn per model call, in order. */
export interface AuthoredScript {
  /** `model` field of the streamed chunks. Default: `nestcast-authored`. */
  readonly model?: string;
  readonly lineages: Readonly<Record<string, readonly AuthoredTurn[]>>;
}
