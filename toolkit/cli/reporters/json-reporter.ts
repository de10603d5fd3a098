import { failureGroups } from '../../scenarios/group-failures.js';
import type { Reporter } from './reporter.js';

export const JSON_REPORT_FORMAT = 'nestcast-run-report';
/** 2: failures grouped by cause (`consequences`), and each scenario's `file`. */
export const JSON_REPORT_VERSION = 2;

/**
 * One JSON document: totals, then per scenario its file, verdict, sessions, model calls, duration,
 * failures (each headline with the failures it caused as its `consequences`) and a failed run's harness log.
 */
export const jsonReporter: Reporter = ({ reports, startedAt, durationMs, files }) => {
  const failed = reports.filter((report) => !report.passed).length;
  const document = {
    format: JSON_REPORT_FORMAT,
    version: JSON_REPORT_VERSION,
    startedAt,
    durationMs: Math.round(durationMs),
    scenarios: { total: reports.length, passed: reports.length - failed, failed },
    results: reports.map((report) => ({
      name: report.name,
      ...(files?.[report.name] === undefined ? {} : { file: files[report.name] }),
      result: report.passed ? 'pass' : 'fail',
      mode: report.mode,
      source: report.source,
      sessions: report.sessions,
      modelCalls: report.modelCalls,
      durationMs: Math.round(report.durationMs),
      failures: failureGroups(report.failures).map(({ headline, consequences }) => ({
        code: headline.code,
        message: headline.message,
        ...(consequences.length > 0
          ? { consequences: consequences.map(({ code, message }) => ({ code, message })) }
          : {}),
      })),
      ...(report.log !== undefined ? { log: report.log } : {}),
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
};
