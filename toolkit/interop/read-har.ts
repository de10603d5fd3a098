import type { JsonSchema } from '../../harness/schema.js';
import { compileChecker } from '../validation/compile-checker.js';
import type { HttpExchange } from './http-exchange.js';
import { InteropError } from './interop-error.js';

interface HarHeader {
  readonly name: string;
  readonly value: string;
}

interface HarEntry {
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: readonly HarHeader[];
    readonly postData?: { readonly text?: string };
  };
  readonly response: {
    readonly status: number;
    readonly headers: readonly HarHeader[];
    readonly content: { readonly text?: string; readonly encoding?: string };
  };
}

const headers = {
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'value'],
    properties: { name: { type: 'string' }, value: { type: 'string' } },
  },
} as const;

/** The fields an import reads; the rest of HAR 1.2 (timings, cookies, cache) is allowed and ignored. */
const entrySchema: JsonSchema = {
  type: 'object',
  required: ['request', 'response'],
  properties: {
    request: {
      type: 'object',
      required: ['method', 'url', 'headers'],
      properties: {
        method: { type: 'string', minLength: 1 },
        url: { type: 'string', minLength: 1 },
        headers,
        postData: { type: 'object', properties: { text: { type: 'string' } } },
      },
    },
    response: {
      type: 'object',
      required: ['status', 'headers', 'content'],
      properties: {
        status: { type: 'integer' },
        headers,
        content: { type: 'object', properties: { text: { type: 'string' }, encoding: { type: 'string' } } },
      },
    },
  },
};

const checkEntry = compileChecker<HarEntry>(entrySchema);

/**
 * The exchanges of a HAR 1.2 file: browser devtools and proxy exports, and Polly.js recordings
 * (`recording.har`), which are HAR with Polly's `_id`/`_order` fields added.
 */
export function readHar(parsed: unknown, file: string): HttpExchange[] {
  const entries = (parsed as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) {
    throw new InteropError(
      'IMPORT_INVALID',
      `${file}: a HAR file is an object with log.entries (an array); /log/entries is missing.`,
    );
  }
  return entries.map((entry: unknown, index) => {
    const checked = checkEntry(entry);
    if (!checked.ok)
      throw new InteropError(
        'IMPORT_INVALID',
        `${file}: entry ${index}: ${checked.problem}. Fix that entry or remove it from the file.`,
      );
    return exchangeOf(checked.value, index, file);
  });
}

function exchangeOf(entry: HarEntry, index: number, file: string): HttpExchange {
  const { request, response } = entry;
  try {
    new URL(request.url);
  } catch (cause) {
    throw new InteropError(
      'IMPORT_INVALID',
      `${file}: entry ${index}: /request/url ${JSON.stringify(request.url)} is not an absolute URL.`,
      { cause },
    );
  }
  const { text = '', encoding } = response.content;
  if (encoding !== undefined && encoding !== 'base64') {
    throw new InteropError(
      'IMPORT_INVALID',
      `${file}: entry ${index}: /response/content/encoding "${encoding}" is not supported (HAR allows base64 only).`,
    );
  }
  return {
    index,
    method: request.method.toUpperCase(),
    url: request.url,
    requestHeaders: headerRecord(request.headers),
    requestBody: request.postData?.text ?? '',
    status: response.status,
    responseHeaders: headerRecord(response.headers),
    responseBody: encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text,
  };
}

function headerRecord(list: readonly HarHeader[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const { name, value } of list) {
    const key = name.toLowerCase();
    result[key] = result[key] === undefined ? value : `${result[key]}, ${value}`;
  }
  return result;
}
