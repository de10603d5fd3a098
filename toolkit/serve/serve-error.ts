import { NestcastError } from '../../harness/errors.js';

export type ServeErrorCode =
  /** The options (or flags) name no mode, several modes, or a value that cannot be used. */
  | 'SERVE_OPTIONS_INVALID'
  /** `--port` is taken by another process. */
  | 'PORT_IN_USE'
  /** A request for a path or method the endpoint does not serve. */
  | 'UNKNOWN_ROUTE'
  /** A model call whose body is not JSON. */
  | 'BODY_NOT_JSON'
  /** Record mode: the upstream refused the connection, or the name did not resolve. Nothing is saved. */
  | 'UPSTREAM_UNREACHABLE'
  /** Record mode: the upstream answered 401 or 403 (a missing or wrong key). Nothing is saved. */
  | 'UPSTREAM_UNAUTHORIZED'
  /** Record mode ended with no model call recorded. Nothing is saved. */
  | 'NOTHING_RECORDED'
  /** A call the running mode has no answer for (turns added to a recording, a reset while recording). */
  | 'SERVE_MODE_MISMATCH';

/** Every failure of `nestcast serve` and `startModelServer` that is not a replay failure (those are CassetteErrors). */
export class ServeError extends NestcastError<ServeErrorCode> {}
