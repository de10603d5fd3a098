import type { Json } from '../canonical/canonical-json.js';
import { URL_FIELD, type CanonicalRequest } from '../canonical/canonical-request.js';
import type { WireProtocol } from './wire-protocol.js';

/**
 * The request as stored and compared: its body's content with what its protocol reads from the URL
 * (`urlFields`) under `$url`. A protocol whose URL asks nothing leaves the request as it is, so
 * calls of those APIs are stored byte for byte as before.
 */
export function withUrlFields(
  protocol: WireProtocol | undefined,
  url: URL,
  content: CanonicalRequest,
): CanonicalRequest {
  const fields = protocol?.urlFields?.(url);
  if (fields === undefined || Object.keys(fields).length === 0) return content;
  return { ...content, [URL_FIELD]: fields as Json };
}

/** The body a stored request was sent with: the request without its URL-borne fields. */
export function sentBody(request: CanonicalRequest): CanonicalRequest {
  if (!(URL_FIELD in request)) return request;
  const { [URL_FIELD]: _url, ...body } = request;
  return body;
}

/** A URL-borne field of a stored request (`undefined` when it was not stored). */
export function urlField(request: CanonicalRequest, name: string): Json | undefined {
  const fields = request[URL_FIELD];
  return fields !== null && typeof fields === 'object' && !Array.isArray(fields) ? fields[name] : undefined;
}
