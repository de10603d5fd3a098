import { LINEAGE_PATH_PREFIX as LINEAGE_PREFIX } from '../../harness/http/serve-endpoint.js';
import { ServeError } from './serve-error.js';

/** The endpoint's own requests live under this path, which no model API uses. */
export const CONTROL_PREFIX = '/__nestcast/';

export interface SessionRoute {
  /** The session the caller named by its path, if it did. */
  readonly lineage?: string;
  /** The path (and query) with the lineage prefix taken off: what the API sees. */
  readonly path: string;
}

/**
 * Reads the session a caller named in its path: `/lineage/main%2Fcall_1/v1/messages` is session
 * `main/call_1` calling `/v1/messages`. Lets a program whose only knob is a base URL name its
 * session (the ACP provider gives a child `<url>/lineage/<its lineage>`).
 */
export function sessionRoute(rawPath: string): SessionRoute {
  if (!rawPath.startsWith(LINEAGE_PREFIX)) return { path: rawPath };
  const rest = rawPath.slice(LINEAGE_PREFIX.length);
  const end = rest.search(/[/?]/);
  const segment = end === -1 ? rest : rest.slice(0, end);
  let lineage: string;
  try {
    lineage = decodeURIComponent(segment);
  } catch (error) {
    throw new ServeError('UNKNOWN_ROUTE', `The session name in ${rawPath} is not valid percent-encoding.`, {
      cause: error,
    });
  }
  if (lineage === '')
    throw new ServeError('UNKNOWN_ROUTE', `The path ${rawPath} has ${LINEAGE_PREFIX} but no session name after it.`);
  const path = end === -1 ? '/' : rest.slice(end);
  return { lineage, path: path.startsWith('?') ? `/${path}` : path };
}
