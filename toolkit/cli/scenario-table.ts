import { failureGroups, failureSummary } from '../scenarios/group-failures.js';
import type { ScenarioReport } from '../scenarios/run-scenario.js';
import { consequencesLine } from '../scenarios/scenario-report.js';
import type { Paint } from './io.js';

/**
 * `✓ spawn-one  2 sessions  3 model calls  41 ms`, then each headline failure indented with the
 * failures it caused under it (first lines only), then a failed run's harness log.
 */
export function progressLine(report: ScenarioReport, p: Paint): string {
  const mark = report.passed ? p.green('✓') : p.red('✗');
  const facts = p.dim(
    `${report.sessions} sessions  ${report.modelCalls} model calls  ${Math.round(report.durationMs)} ms`,
  );
  const lines = [`${mark} ${report.name}  ${facts}`];
  for (const note of report.notes ?? []) lines.push(indent(`${p.yellow('note')} ${note}`, '    '));
  for (const { headline, consequences } of failureGroups(report.failures)) {
    lines.push(indent(`${p.red(headline.code)} ${headline.message}`, '    '));
    if (consequences.length > 0) lines.push(indent(p.dim(consequencesLine(consequences.length)), '    '));
    for (const failure of consequences)
      lines.push(indent(`- ${p.yellow(failure.code)} ${failureSummary(failure.message)}`, '      '));
  }
  if (report.log !== undefined)
    lines.push(indent([p.dim('harness log:'), ...report.log.map((line) => `  ${line}`)].join('\n'), '    '));
  return `${lines.join('\n')}\n`;
}

/** The summary table: scenario, sessions, model calls, result, time; then the totals. */
export function summaryTable(reports: readonly ScenarioReport[], p: Paint): string {
  const header = ['scenario', 'sessions', 'model calls', 'result', 'time'];
  const rows = reports.map((report) => [
    report.name,
    String(report.sessions),
    String(report.modelCalls),
    report.passed ? 'pass' : 'FAIL',
    `${Math.round(report.durationMs)} ms`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const format = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  const failed = reports.filter((report) => !report.passed).length;
  const colour = (row: string[], line: string) => (row[3] === 'FAIL' ? p.red(line) : line);
  return [
    p.bold(format(header)),
    ...rows.map((row) => colour(row, format(row))),
    '',
    failed === 0
      ? p.green(`${count(reports.length, 'scenario')} passed`)
      : p.red(`${failed} of ${count(reports.length, 'scenario')} failed`),
    '',
  ].join('\n');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}
