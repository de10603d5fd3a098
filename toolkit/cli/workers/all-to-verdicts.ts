import type { NetworkEscape } from '../../guard/network-guard.js';
import type { RunEvidence, ScenarioReport } from '../../scenarios/run-scenario.js';
import { ScenarioError } from '../../scenarios/scenario-error.js';
import { paint, type CliIo } from '../io.js';
import { reportCollector } from '../report-runs.js';
import { progressLine, summaryTable } from '../scenario-table.js';
import { runInWorkers } from './scenario-pool.js';
import type { WorkerRunOptions } from './worker-messages.js';

/** How `nestcast run` and `nestcast record` take their scenarios to verdicts. */
export interface AllToVerdictsOptions {
  readonly run: WorkerRunOptions;
  /** Worker processes, at most one per scenario. */
  readonly workers: number;
  /** `--report <dir>`, absolute. */
  readonly reportDir: string | undefined;
  /** Lines printed under a scenario's progress line (record: the ambiguities it saved). */
  readonly linesAfter?: (report: ScenarioReport) => Promise<readonly string[]>;
}

/** What `allToVerdicts` found: the verdicts, and what workers saw that fails the run without being any scenario's verdict. */
export interface VerdictsOutcome {
  readonly reports: ScenarioReport[];
  readonly workerEscapes: readonly NetworkEscape[];
  readonly lostWorkers: readonly string[];
}

/**
 * Every named scenario to its verdict in worker processes, never in this one: this process gives
 * the verdicts, and stops any worker that overstays (see `runInWorkers`). Progress lines go to
 * `io.stdout` in scenario order, each as soon as every scenario before it has its verdict, then
 * the summary and the `--report` pages.
 */
export async function allToVerdicts(
  names: readonly string[],
  options: AllToVerdictsOptions,
  io: CliIo,
): Promise<VerdictsOutcome> {
  const p = paint(io.color);
  const htmlReport = reportCollector(options.reportDir);
  const reports: (ScenarioReport | undefined)[] = names.map(() => undefined);
  let printed = 0;
  // Lines under a progress line may need a file read: printing is chained to keep the order.
  let printing = Promise.resolve();
  const onReport = (index: number, report: ScenarioReport, evidence?: RunEvidence): void => {
    reports[index] = report;
    if (evidence !== undefined) htmlReport.keep(report.name, evidence);
    for (let shown = reports[printed]; shown !== undefined; shown = reports[printed]) {
      htmlReport.add(shown);
      const line = progressLine(shown, p);
      const report = shown;
      printing = printing.then(async () => {
        io.stdout(line);
        for (const text of (await options.linesAfter?.(report)) ?? []) io.stdout(`${text}\n`);
      });
      // Awaited once the pool is done; until then a failure must not count as unhandled.
      printing.catch(() => undefined);
      printed++;
    }
  };
  const pool = await runInWorkers(names, {
    workers: options.workers,
    run: { ...options.run, ...(options.reportDir !== undefined ? { evidence: true } : {}) },
    env: io.env,
    cwd: io.cwd,
    stdout: io.stdout,
    stderr: io.stderr,
    onReport,
  });
  await printing;
  const done = reports as ScenarioReport[];
  io.stdout(`\n${summaryTable(done, p)}`);
  await htmlReport.write(io);
  return { reports: done, workerEscapes: pool.escapes, lostWorkers: pool.lostWorkers };
}

/** A worker that ended badly after its last verdict fails the run: something scenario code left running failed. */
export function assertNoLostWorkers(lostWorkers: readonly string[]): void {
  if (lostWorkers.length === 0) return;
  throw new ScenarioError(
    'WORKER_EXITED',
    `${lostWorkers.join('\n')}\nSomething scenario code left running failed after its verdict; its output is above.`,
  );
}
