import { NestcastError } from '../../harness/errors.js';

export type SubagentErrorCode =
  | 'NO_PROVIDER'
  | 'DUPLICATE_PROVIDER'
  | 'UNSUPPORTED_CAPABILITY'
  | 'INVALID_REQUEST'
  | 'DEPTH_EXCEEDED'
  | 'ABORTED'
  | 'PARENT_DISPOSED'
  | 'BUSY'
  | 'START_FAILED'
  | 'NO_SERVICE'
  | 'INVALID_CONFIG';

export class SubagentError extends NestcastError<SubagentErrorCode> {}
