/**
 * Every layer throws one error class with a stable `code`. The message says what was
 * wrong, where, and what to do; the underlying failure rides on `cause`.
 */
export class NestcastError<Code extends string = string> extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }
}

export type HarnessErrorCode =
  | 'DUPLICATE_TOOL'
  | 'UNKNOWN_TOOL'
  | 'TOOL_DENIED'
  | 'INVALID_TOOL_ARGS'
  | 'DUPLICATE_SERVICE'
  | 'NO_ADAPTER'
  | 'DUPLICATE_ADAPTER'
  | 'SESSION_EXISTS'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_CORRUPT'
  | 'SESSION_CLOSED'
  | 'INVALID_SEED'
  | 'INVALID_EVENT'
  | 'INVALID_SESSION_OPTIONS'
  | 'INVALID_AGENT_OPTIONS'
  | 'AGENT_BUSY'
  | 'AGENT_DISPOSED'
  | 'UNKNOWN_TASK'
  | 'RUNTIME_DISPOSED'
  /** `new Runtime(options)` was given an option it does not read. */
  | 'INVALID_RUNTIME_OPTIONS';

export class HarnessError extends NestcastError<HarnessErrorCode> {}
