import { ReportError } from '../../report/report-error.js';
import type { RunResult } from './reporter.js';

/**
 * The runs of one suite's shards as one run: every scenario once, in name order (the order an
 * unsharded run reports them in), started when the first shard started and lasting until the last
 * one ended. A scenario in two reports is refused: those were not shards of one run.
 */
export function mergeRunResults(runs: readonly { readonly where: string; readonly result: RunResult }[]): RunResult {
  const seen = new Map<string, string>();
  for (const { where, result } of runs) {
    for (const report of result.reports) {
      const before = seen.get(report.name);
      if (before !== undefined) {
        throw new ReportError(
          'REPORT_INPUT_INVALID',
          `Scenario "${report.name}" is in both ${before} and ${where}: merge-reports merges the shards of one run (--shard i/n), each scenario in one of them. Give each shard's report once.`,
        );
      }
      seen.set(report.name, where);
    }
  }
  const starts = runs.map(({ result }) => Date.parse(result.startedAt));
  const start = Math.min(...starts);
  const end = Math.max(...runs.map(({ result }, index) => (starts[index] as number) + result.durationMs));
  const reports = runs
    .flatMap(({ result }) => result.reports)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files = Object.assign({}, ...runs.map(({ result }) => result.files ?? {})) as Record<string, string>;
  return { reports, startedAt: new Date(start).toISOString(), durationMs: end - start, files };
}
