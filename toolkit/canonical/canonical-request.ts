import { createHash } from 'node:crypto';
import { canonicalJson, canonicalize, type Json } from './canonical-json.js';

/** A request body as compared and stored: parsed JSON, keys sorted, transport-only fields removed. */
export type CanonicalRequest = { [key: string]: Json };

/**
 * Top-level fields that only shape the transport, never what the model is asked. A recording
 * made with `stream: true` answers the same question as one made without it.
 */
export const TRANSPORT_ONLY_FIELDS: readonly string[] = ['stream', 'stream_options'];

/** Key under which a body that is not a JSON object is kept, verbatim. */
export const RAW_BODY_FIELD = '$body';

/**
 * Canonical form of a request body. Headers (and so credentials) are never part of it, nor is
 * the URL: a cassette recorded against one base URL replays against any other.
 */
export function canonicalRequest(bodyText: string): CanonicalRequest {
  return canonicalize(requestContent(bodyText)) as CanonicalRequest;
}

/**
 * What a request body asks, keys in their sent order: the canonical request before sorting, for
 * comparisons that ignore key order anyway (`jsonEqual`).
 */
export function requestContent(bodyText: string): CanonicalRequest {
  if (bodyText === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return { [RAW_BODY_FIELD]: bodyText };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { [RAW_BODY_FIELD]: bodyText };
  const request = parsed as CanonicalRequest;
  for (const field of TRANSPORT_ONLY_FIELDS) delete request[field];
  return request;
}

/** sha256 (hex) of the canonical request's canonical JSON. */
export function fingerprintOf(request: CanonicalRequest): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}
