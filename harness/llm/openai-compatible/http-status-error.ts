import { LlmError, type LlmErrorCode } from '../errors.js';

const BODY_QUOTE_LIMIT = 500;

export interface HttpFailure {
  /** `POST <url>`, for the message. */
  readonly source: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  /** Whether an authorization header was sent; changes the AUTH hint. */
  readonly keySent: boolean;
  readonly model: string;
}

/** The LlmError for a non-2xx answer, keeping status, body, Retry-After and the request id. */
export function httpStatusError(failure: HttpFailure): LlmError {
  const code = codeFor(failure.status);
  const retryAfterMs = parseRetryAfter(failure.headers.get('retry-after'));
  const requestId = failure.headers.get('x-request-id') ?? failure.headers.get('x-deepseek-request-id') ?? undefined;
  const body = failure.body.length > BODY_QUOTE_LIMIT ? `${failure.body.slice(0, BODY_QUOTE_LIMIT)}…` : failure.body;
  const message = `${failure.source} answered HTTP ${failure.status}${body.length > 0 ? `: ${body}` : ''}. ${hintFor(code, failure, retryAfterMs)}`;
  return new LlmError(code, message, {
    status: failure.status,
    body: failure.body,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(requestId === undefined ? {} : { requestId }),
  });
}

function codeFor(status: number): LlmErrorCode {
  if (status === 401 || status === 403) return 'AUTH';
  if (status === 429) return 'RATE_LIMIT';
  if (status >= 500) return 'SERVER';
  return 'BAD_REQUEST';
}

/** The header nestcast's replay sets on the answer to a call it refused (see toolkit/replay/failure-response.ts). */
const REPLAY_REFUSAL_HEADER = 'x-nestcast-error';

function hintFor(code: LlmErrorCode, failure: HttpFailure, retryAfterMs: number | undefined): string {
  // A replay that refused the call already said what differs and what to do: no advice about a server that was never asked.
  const refusal = failure.headers.get(REPLAY_REFUSAL_HEADER);
  if (refusal !== null) return `nestcast's replay refused this call (${refusal}): its failure says why.`;
  switch (code) {
    case 'AUTH':
      return failure.keySent
        ? 'The API key was refused: check DEEPSEEK_API_KEY or the apiKey you passed.'
        : 'No API key was sent: set DEEPSEEK_API_KEY or pass apiKey.';
    case 'RATE_LIMIT':
      return retryAfterMs === undefined
        ? 'Rate limited: wait and retry.'
        : `Rate limited: retry after ${retryAfterMs} ms.`;
    case 'SERVER':
      return 'The server failed: retry later.';
    default:
      return `The server rejected the request: check the model name (${failure.model}), the base URL and the messages.`;
  }
}

/** Retry-After is either delta-seconds or an HTTP date. */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
