import { NestcastError } from '../../harness/errors.js';

export type InteropErrorCode =
  /** The fixture file is not what `--from` says, or one entry lacks a field the import needs. */
  | 'IMPORT_INVALID'
  /** The fixture holds no chat-completions call to import. */
  | 'IMPORT_EMPTY';

/** A failed import or export. Messages name the file, the entry index and the field. */
export class InteropError extends NestcastError<InteropErrorCode> {}
