import type { AuthoredReply, AuthoredToolCall } from '../protocols/authored-reply.js';

export type { AuthoredReply, AuthoredToolCall };

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
