import type { Reporter } from './reporter.js';

export const JSON_REPORT_FORMAT = 'nestcast-run-report';

/** One JSON document: totals, then per scenario its verdict, sessions, model calls, duration, failures and a failed run's harness log. */
export const jsonReporter: Reporter = ({ reports, startedAt, durationMs }) => {
  const failed = reports.filter((report) => !report.passed).length;
  const document = {
    format: JSON_REPORT_FORMAT,
    version: 1,
    startedAt,
    durationMs: Math.round(durationMs),
    scenarios: { total: reports.length, passed: reports.length - failed, failed },
    results: reports.map((report) => ({
      name: report.name,
      result: report.passed ? 'pass' : 'fail',
      mode: report.mode,
      source: report.source,
      sessions: report.sessions,
      modelCalls: report.modelCalls,
      durationMs: Math.round(report.durationMs),
      failures: report.failures.map(({ code, message }) => ({ code, message })),
      ...(report.log !== undefined ? { log: report.log } : {}),
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
};
