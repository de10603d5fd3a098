import { createHash } from 'node:crypto';
import { canonicalJson, canonicalize, type Json } from './canonical-json.js';

/** A request body as compared and stored: parsed JSON, keys sorted, transport-only fields removed. */
export type CanonicalRequest = { [key: string]: Json };

/**
 * Top-level fields kept out of the stored request. `stream` still matters: replay compares it with
 * the recorded response's shape (events or a body), so a streaming call never gets a JSON answer.
 */
export const TRANSPORT_ONLY_FIELDS: readonly string[] = ['stream', 'stream_options'];

/** Key under which a body that is not a JSON object is kept, verbatim. */
export const RAW_BODY_FIELD = '$body';

/**
 * Key under which a request's URL-borne fields are kept (a wire protocol's `urlFields`: Gemini's
 * model), so they are stored and compared like the body; no other part of the URL is.
 */
export const URL_FIELD = '$url';

/**
 * Canonical form of a request body. Headers (and so credentials) are never part of it, nor is
 * the URL, except the fields a wire protocol reads from it (`$url`): a cassette recorded against
 * one base URL replays against any other.
 */
export function canonicalRequest(bodyText: string): CanonicalRequest {
  return canonicalize(requestContent(bodyText)) as CanonicalRequest;
}

/**
 * What a request body asks, keys in their sent order: the canonical request before sorting, for
 * comparisons that ignore key order anyway (`jsonEqual`).
 */
export function requestContent(bodyText: string): CanonicalRequest {
  return readRequest(bodyText).content;
}

/** A request body read: what it asks, whether it streams, and the body as sent. */
export interface ReadRequest {
  readonly content: CanonicalRequest;
  readonly stream: boolean;
  readonly sent: CanonicalRequest;
}

/**
 * What a request asks (`requestContent`), whether it asked for a stream (`stream: true`), and the
 * body as sent (transport fields kept): what a wire protocol reads to claim the request.
 */
export function readRequest(bodyText: string): ReadRequest {
  return readParsedRequest(parseContent(bodyText));
}

/** `readRequest` of a body its receiver has already parsed (nestcast serve): `sent` is that object, untouched. */
export function readParsedRequest(sent: CanonicalRequest): ReadRequest {
  return { content: withoutTransportFields(sent), stream: sent['stream'] === true, sent };
}

/**
 * The body without its transport fields, built key by key in sent order. Not a copy with the
 * fields deleted: `delete` turns a V8 object into a dictionary, and every later read of the
 * request (matching, threading, on every replayed call) then goes through a hash lookup.
 */
function withoutTransportFields(sent: CanonicalRequest): CanonicalRequest {
  const content: CanonicalRequest = {};
  for (const key in sent) {
    if (!Object.hasOwn(sent, key) || TRANSPORT_ONLY_FIELDS.includes(key)) continue;
    // A body's own `__proto__` key is data, as `JSON.parse` made it; assigning it would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(content, key, { value: sent[key], enumerable: true, writable: true, configurable: true });
    else content[key] = sent[key] as Json;
  }
  return content;
}

function parseContent(bodyText: string): CanonicalRequest {
  if (bodyText === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return { [RAW_BODY_FIELD]: bodyText };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { [RAW_BODY_FIELD]: bodyText };
  return parsed as CanonicalRequest;
}

/** sha256 (hex) of the canonical request's canonical JSON. */
export function fingerprintOf(request: CanonicalRequest): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}
