import { NestcastError } from '../errors.js';

export type LlmErrorCode =
  | 'AUTH'
  | 'RATE_LIMIT'
  | 'SERVER'
  | 'BAD_REQUEST'
  | 'NETWORK'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'PROTOCOL'
  /** An adapter was configured with a key it does not read (`baseURL` for `baseUrl`). */
  | 'CONFIG_INVALID';

export interface LlmErrorDetails {
  /** HTTP status, when the server answered. */
  readonly status?: number;
  /** Response body text, when the server answered with an error. */
  readonly body?: string;
  readonly retryAfterMs?: number;
  readonly requestId?: string;
  readonly cause?: unknown;
}

/** Every failure of a model call. `code` is stable; the message names the endpoint and what to do. */
export class LlmError extends NestcastError<LlmErrorCode> {
  readonly status?: number;
  readonly body?: string;
  readonly retryAfterMs?: number;
  readonly requestId?: string;

  constructor(code: LlmErrorCode, message: string, details: LlmErrorDetails = {}) {
    super(code, message, { cause: details.cause });
    if (details.status !== undefined) this.status = details.status;
    if (details.body !== undefined) this.body = details.body;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.requestId !== undefined) this.requestId = details.requestId;
  }
}
