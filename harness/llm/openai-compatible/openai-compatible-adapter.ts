import { DEFAULT_LINEAGE } from '../../session/lineage.js';
import { nonBlank } from '../../non-blank.js';
import { optionKeys, unknownOption } from '../../option-keys.js';
import { describeWithCause } from '../../error-text.js';
import { LlmError } from '../errors.js';
import { LINEAGE_HEADER, type LlmAdapter, type LlmCallOptions, type LlmEvent, type LlmRequest } from '../types.js';
import { ChunkTranslator } from './chunk-translator.js';
import { httpStatusError } from './http-status-error.js';
import { IdleWatchdog } from './idle-watchdog.js';
import { buildRequestBody } from './request-body.js';
import { SseDecoder } from './sse-decoder.js';

export interface OpenAICompatibleConfig {
  /** Registry name; default `deepseek`. */
  readonly name?: string;
  /** Default: env DEEPSEEK_BASE_URL, else https://api.deepseek.com. */
  readonly baseUrl?: string;
  /** Default: env DEEPSEEK_API_KEY. Without a key no authorization header is sent. */
  readonly apiKey?: string;
  /** Used when the request names no model. Default: env DEEPSEEK_MODEL, else deepseek-v4-flash. */
  readonly model?: string;
  /** Where recording and replay plug in. Default: the global fetch at call time. */
  readonly fetch?: typeof fetch;
  /** Read at every call. Default: process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** A call fails with TIMEOUT when no byte arrives for this long. Default 300000. */
  readonly idleTimeoutMs?: number;
  /** Vendor keys appended to every body, e.g. `{thinking: {type: 'disabled'}}`. */
  readonly extraBody?: Readonly<Record<string, unknown>>;
}

export const DEFAULT_BASE_URL = 'https://api.deepseek.com';
export const DEFAULT_MODEL = 'deepseek-v4-flash';
const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

interface ResolvedCall {
  readonly url: string;
  readonly source: string;
  readonly model: string;
  readonly keySent: boolean;
  readonly init: RequestInit;
}

const CONFIG_KEYS = optionKeys<OpenAICompatibleConfig>({
  name: true,
  baseUrl: true,
  apiKey: true,
  model: true,
  fetch: true,
  env: true,
  idleTimeoutMs: true,
  extraBody: true,
});

/**
 * The adapter for any OpenAI-compatible chat-completions endpoint, streaming over SSE. DeepSeek by
 * default. A config key it does not read is refused (CONFIG_INVALID): the openai SDK's `baseURL`,
 * read as unset, would send the key given beside it to DeepSeek.
 */
export function createOpenAICompatibleAdapter(config: OpenAICompatibleConfig = {}): LlmAdapter {
  const unknown = unknownOption(config, CONFIG_KEYS);
  if (unknown !== undefined) throw new LlmError('CONFIG_INVALID', `createOpenAICompatibleAdapter: ${unknown}.`);
  const idleTimeoutMs = config.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  return {
    name: config.name ?? 'deepseek',
    stream: (request, options) =>
      streamCall(
        resolveCall(config, request, options),
        config.fetch ?? globalThis.fetch,
        idleTimeoutMs,
        options.signal,
      ),
  };
}

function resolveCall(config: OpenAICompatibleConfig, request: LlmRequest, options: LlmCallOptions): ResolvedCall {
  const env = config.env ?? process.env;
  const baseUrl = (config.baseUrl ?? nonBlank(env.DEEPSEEK_BASE_URL)?.trim() ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const key = nonBlank(config.apiKey)?.trim() ?? nonBlank(env.DEEPSEEK_API_KEY)?.trim();
  const model = request.model ?? config.model ?? nonBlank(env.DEEPSEEK_MODEL)?.trim() ?? DEFAULT_MODEL;
  const url = `${baseUrl}/chat/completions`;
  return {
    url,
    source: `POST ${url}`,
    model,
    keySent: key !== undefined,
    init: {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
        [LINEAGE_HEADER]: options.lineage ?? DEFAULT_LINEAGE,
      },
      body: JSON.stringify(buildRequestBody(request, model, config.extraBody)),
    },
  };
}

async function* streamCall(
  call: ResolvedCall,
  fetchImpl: typeof fetch,
  idleTimeoutMs: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<LlmEvent> {
  if (signal?.aborted) throw aborted(call, 'before it was sent', signal);
  const connection = new AbortController();
  const watchdog = new IdleWatchdog(idleTimeoutMs, () => connection.abort(new Error(`idle for ${idleTimeoutMs} ms`)));
  const onAbort = (): void => connection.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const failure = (cause: unknown, where: string): LlmError => {
    if (signal?.aborted) return aborted(call, where, signal);
    if (watchdog.fired) {
      return new LlmError(
        'TIMEOUT',
        `${call.source} sent no bytes for ${idleTimeoutMs} ms ${where}; raise idleTimeoutMs or check the server`,
        { cause },
      );
    }
    return new LlmError(
      'NETWORK',
      `${call.source} failed ${where}: ${describeWithCause(cause)}; check the base URL and the network`,
      { cause },
    );
  };

  try {
    let response: Response;
    try {
      watchdog.arm();
      response = await fetchImpl(call.url, { ...call.init, signal: connection.signal });
    } catch (cause) {
      throw failure(cause, 'before a response arrived');
    }
    if (!response.ok) {
      let body: string;
      try {
        watchdog.arm();
        body = await response.text();
      } catch (cause) {
        throw failure(cause, `while reading the HTTP ${response.status} error body`);
      }
      throw httpStatusError({
        source: call.source,
        status: response.status,
        headers: response.headers,
        body,
        keySent: call.keySent,
        model: call.model,
      });
    }
    if (response.body === null)
      throw new LlmError(
        'PROTOCOL',
        `${call.source} answered HTTP ${response.status} with no body; expected an SSE stream`,
        { status: response.status },
      );

    const reader = response.body.getReader();
    const decoder = new SseDecoder();
    const translator = new ChunkTranslator(call.source);
    let received = 0;
    for (;;) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        watchdog.arm();
        read = await reader.read();
      } catch (cause) {
        throw failure(cause, `mid-stream: the stream was cut after ${received} events`);
      }
      watchdog.disarm();
      if (read.done) {
        // Some servers (gateways, xAI) close cleanly after the finish chunk without `[DONE]`, as the
        // openai SDK allows; a close before any finish_reason is a cut answer.
        if (translator.finished) {
          yield* translator.end();
          return;
        }
        break;
      }
      for (const message of decoder.push(read.value)) {
        received++;
        yield* translator.accept(message.data);
      }
      if (decoder.done) {
        yield* translator.end();
        return;
      }
    }
    throw new LlmError(
      'PROTOCOL',
      `${call.source} ended the stream after ${received} events without data: [DONE] and before any finish_reason; the response was truncated`,
    );
  } finally {
    watchdog.disarm();
    signal?.removeEventListener('abort', onAbort);
    // Releases the connection whatever happened (error, early return by the consumer); a no-op once the body is fully read.
    connection.abort(CONNECTION_RELEASED);
  }
}

/**
 * The reason a finished call's connection is released with. One shared value: \`abort()\` without a
 * reason builds a DOMException, stack trace and all, on every call, and almost always nobody reads it.
 */
const CONNECTION_RELEASED = new DOMException('the model call ended and released its connection', 'AbortError');

function aborted(call: ResolvedCall, where: string, signal: AbortSignal): LlmError {
  return new LlmError('ABORTED', `${call.source} was aborted by the caller ${where}`, { cause: signal.reason });
}
