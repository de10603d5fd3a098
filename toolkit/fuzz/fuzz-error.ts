import { NestcastError } from '../../harness/errors.js';

export type FuzzErrorCode =
  | 'LIFECYCLE_VIOLATION'
  | 'INVALID_FUZZ_OPTIONS'
  | 'UNKNOWN_FUZZ_PROVIDER'
  | 'INVALID_PROVIDER_MODULE'
  /** A provider factory, or the fixture it built, holds a misspelling of a key the suite reads. */
  | 'INVALID_PROVIDER_FACTORY';

/** Errors of the lifecycle conformance suite and the `nestcast fuzz` command. */
export class FuzzError extends NestcastError<FuzzErrorCode> {}
