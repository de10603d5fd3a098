import { NestcastError } from '../../harness/errors.js';

export type AcpCassetteErrorCode =
  | 'ACP_CASSETTE_NOT_FOUND'
  | 'ACP_CASSETTE_INVALID'
  | 'ACP_REQUEST_MISMATCH'
  | 'ACP_UNEXPECTED_MESSAGE'
  | 'ACP_EXCHANGE_UNCONSUMED'
  | 'SECRET_IN_RECORDING';

/** Every protocol-cassette failure; messages name the file, the entry and the fix (re-record). */
export class AcpCassetteError extends NestcastError<AcpCassetteErrorCode> {}
