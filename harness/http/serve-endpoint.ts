// Conventions of a `nestcast serve` endpoint shared by the endpoint (toolkit/serve) and the ACP
// provider that points children at it, so they live below both.

/** The path prefix that names a session: `<url>/lineage/<name>/v1/…`, the one knob a program that reads its base URL from the environment offers. */
export const LINEAGE_PATH_PREFIX = '/lineage/';

/** `<url>/lineage/<name>`, the name percent-encoded so a `/` in a lineage stays inside one path segment. */
export function lineageBaseUrl(url: string, lineage: string): string {
  return `${url.replace(/\/+$/, '')}${LINEAGE_PATH_PREFIX}${encodeURIComponent(lineage)}`;
}

/** The key a client is given when the endpoint answers for the model: clients refuse to start without one, and it is never a real one. */
export const DUMMY_MODEL_KEY = 'nestcast-dummy-key';
