import { NestcastError } from '../../harness/errors.js';

export type ReportErrorCode = 'REPORT_INVALID' | 'SECRET_IN_REPORT' | 'REPORT_NOT_WRITTEN';

/** Building or writing a report. Messages name the scenario or file and what to do. */
export class ReportError extends NestcastError<ReportErrorCode> {}
