import { NestcastError } from '../../harness/errors.js';

export type ReportErrorCode =
  | 'REPORT_INVALID'
  | 'SECRET_IN_REPORT'
  | 'REPORT_NOT_WRITTEN'
  /** A file given to `nestcast merge-reports` is not a JSON run report, or the reports overlap. */
  | 'REPORT_INPUT_INVALID';

/** Building or writing a report. Messages name the scenario or file and what to do. */
export class ReportError extends NestcastError<ReportErrorCode> {}
