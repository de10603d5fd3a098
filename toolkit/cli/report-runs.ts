import type { RunEvidence, ScenarioReport } from '../scenarios/run-scenario.js';
import type { ScenarioRun } from '../report/report-inputs.js';
import type { CliIo } from './io.js';

// The report's modules (cassette loading, rendering, its schemas) load only when a report is
// written: a `run` without --report, the parent of workers above all, never pays for them.
const reportModules = async () => ({
  ...(await import('../report/report-inputs.js')),
  ...(await import('../report/write-report.js')),
});

/**
 * `--report <dir>` for run and record: keeps what each scenario's run left behind, paired with
 * its report by scenario name (so it holds however the runs are scheduled), then writes the pages.
 */
export function reportCollector(dir: string | undefined) {
  const evidence = new Map<string, RunEvidence>();
  const runs: ScenarioRun[] = [];
  return {
    /** Options for `runScenario`: nothing is kept without `--report`. */
    optionsFor(scenario: string): { onEvidence?: (evidence: RunEvidence) => void } {
      return dir === undefined ? {} : { onEvidence: (left) => void evidence.set(scenario, left) };
    },
    /** Evidence that arrived from elsewhere (a worker process), for the report of `scenario`. */
    keep(scenario: string, left: RunEvidence): void {
      if (dir !== undefined) evidence.set(scenario, left);
    },
    add(report: ScenarioReport): void {
      if (dir === undefined) return;
      const left = evidence.get(report.name);
      evidence.delete(report.name);
      runs.push(left === undefined ? { report } : { report, evidence: left });
    },
    async write(io: CliIo): Promise<void> {
      if (dir === undefined) return;
      const { writeReport, runReportInput } = await reportModules();
      const written = await writeReport(dir, runs.map(runReportInput), { env: io.env });
      io.stdout(`\nreport: ${written.index}\n`);
    },
  };
}

/** `nestcast show`: the same page for a recording, drawn without running it. */
export async function writeRecordingReport(
  dir: string,
  recordingDir: string,
  io: CliIo,
  recordHint: string,
): Promise<string> {
  const { writeReport, recordingReportInput } = await reportModules();
  const written = await writeReport(dir, [await recordingReportInput(recordingDir, { recordHint })], { env: io.env });
  return (written.pages[0] as (typeof written.pages)[number]).path;
}
