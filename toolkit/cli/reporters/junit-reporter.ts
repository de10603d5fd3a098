import { failureSummary } from '../../scenarios/group-failures.js';
import { describeFailures } from '../../scenarios/scenario-report.js';
import type { Reporter } from './reporter.js';

/**
 * JUnit XML as GitHub (test-reporter actions), GitLab (`artifacts:reports:junit`) and Jenkins
 * (`junit`) read it: one `<testsuite>`, one `<testcase>` per scenario (its `file` the scenario's
 * file, which GitHub's annotations point at), a `<failure>` per failing
 * one whose `type` is the headline failure's code and whose text holds every failure, the ones it
 * caused listed under it, and the harness log.
 */
export const junitReporter: Reporter = ({ reports, startedAt, durationMs, files }) => {
  const failed = reports.filter((report) => !report.passed).length;
  const seconds = (ms: number): string => (ms / 1000).toFixed(3);
  const cases = reports.map((report) => {
    const file = files?.[report.name];
    const open = `    <testcase classname="nestcast.scenarios" name="${xml(report.name)}"${file === undefined ? '' : ` file="${xml(file)}"`} time="${seconds(report.durationMs)}"`;
    const [first] = report.failures;
    if (report.passed || first === undefined) return `${open}/>`;
    const text = describeFailures(report);
    const summary = failureSummary(first.message);
    return [
      `${open}>`,
      `      <failure type="${xml(first.code)}" message="${xml(`${first.code}: ${summary}`)}">${xml(text)}</failure>`,
      `      <system-out>${xml(`${report.sessions} sessions, ${report.modelCalls} model calls, ${report.source}`)}</system-out>`,
      '    </testcase>',
    ].join('\n');
  });
  const counts = `tests="${reports.length}" failures="${failed}" errors="0" skipped="0" time="${seconds(durationMs)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="nestcast" ${counts}>`,
    `  <testsuite name="nestcast run" ${counts} timestamp="${xml(startedAt.replace(/\.\d+Z$/, ''))}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
};

/**
 * Text safe in an XML attribute or element: the five specials escaped, and characters XML 1.0
 * cannot hold at all (most control characters, lone surrogates) shown as `\uXXXX`.
 */
export function xml(text: string): string {
  return text
    .replace(
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
