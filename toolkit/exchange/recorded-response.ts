// What came back over the wire for one call: the cassette stores it, every wire protocol reads it.

/** One server-sent event as received. `delay` is whole milliseconds since the previous event (or since the request, for the first). */
export type SseEvent =
  | { readonly delay: number; readonly data: string; readonly event?: string }
  | { readonly delay: number; readonly comment: string };

/** A streamed (`text/event-stream`) answer. `done` says the stream ended with its protocol's sentinel (`data: [DONE]`). */
export interface StreamedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly events: readonly SseEvent[];
  readonly done: boolean;
}

/** A successful answer that was not a stream (a request made with `stream: false`). */
export interface BodyResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What had arrived before a call failed mid-stream. */
export interface PartialResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly events: readonly SseEvent[];
}

export type CallFailure =
  /** The server answered with status >= 400. */
  | {
      readonly kind: 'http';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string;
    }
  /** The connection failed (refused, reset, dropped mid-stream). */
  | { readonly kind: 'network'; readonly message: string; readonly code?: string; readonly partial?: PartialResponse }
  /** The caller's signal timed out (`AbortSignal.timeout`). */
  | { readonly kind: 'timeout'; readonly message: string; readonly partial?: PartialResponse }
  /** The caller aborted. Replay serves `partial` and then waits for the live caller to abort too. */
  | { readonly kind: 'aborted'; readonly message: string; readonly partial?: PartialResponse };

export type RecordedResponse = StreamedResponse | BodyResponse | { readonly error: CallFailure };
