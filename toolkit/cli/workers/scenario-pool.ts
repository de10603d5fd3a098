import { spawn, type ChildProcess } from 'node:child_process';
import { failedReport } from '../../scenarios/run-scenario-file.js';
import type { ScenarioReport } from '../../scenarios/run-scenario.js';
import { nestcastCliCommand } from '../../scenarios/locate-cli.js';
import { isReportMessage, type RunMessage, type WorkerRunOptions } from './worker-messages.js';

export interface PoolOptions {
  /** Worker processes to start, at most one per scenario. */
  readonly workers: number;
  readonly run: WorkerRunOptions;
  /** The environment of every worker process (and so of the scenarios it runs). */
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Whatever a worker (scenario code included) writes, passed on as it arrives. */
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Called once per scenario, in completion order, with its index in `names`. */
  readonly onReport: (index: number, report: ScenarioReport) => void;
}

const STDERR_TAIL = 2_000;
const TRAILING_OUTPUT_MS = 200;

/**
 * Runs every named scenario in worker processes, each worker taking whole scenarios one at a time
 * from a shared queue. A worker that exits while it holds a scenario (process.exit in scenario
 * code, a crash, a kill) fails that scenario with WORKER_EXITED and is replaced for the rest, so
 * every scenario gets a verdict. Resolves with the reports in the order of `names`.
 */
export function runInWorkers(names: readonly string[], options: PoolOptions): Promise<ScenarioReport[]> {
  const cli = nestcastCliCommand();
  const reports: (ScenarioReport | undefined)[] = names.map(() => undefined);
  let next = 0;
  let live = 0;

  return new Promise((resolve) => {
    const settle = (index: number, report: ScenarioReport): void => {
      reports[index] = report;
      options.onReport(index, report);
    };
    const finishIfDone = (): void => {
      if (live === 0 && next >= names.length) resolve(reports as ScenarioReport[]);
    };

    const startWorker = (): void => {
      live++;
      const child: ChildProcess = spawn(cli.command, [...cli.args, 'scenario-worker'], {
        cwd: options.cwd,
        env: options.env,
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      });
      let holding: { index: number; started: number } | undefined;
      let stderrTail = '';
      child.stdout?.setEncoding('utf8').on('data', (text: string) => options.stdout(text));
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
        options.stderr(text);
      });

      const giveNext = (): void => {
        if (next >= names.length || !child.connected) {
          holding = undefined;
          if (child.connected) child.disconnect();
          return;
        }
        const index = next++;
        holding = { index, started: performance.now() };
        const message: RunMessage = { type: 'run', name: names[index] as string, options: options.run };
        child.send(message, (error) => {
          // A worker already gone: its exit handler gives the scenario its verdict.
          if (error) child.kill('SIGKILL');
        });
      };

      child.on('message', (message: unknown) => {
        if (!isReportMessage(message) || holding === undefined || message.name !== names[holding.index]) return;
        settle(holding.index, message.report);
        giveNext();
      });
      let exited = false;
      const onGone = (how: string): void => {
        if (exited) return;
        exited = true;
        live--;
        if (holding !== undefined) {
          const { index, started } = holding;
          holding = undefined;
          const tail = stderrTail.trim();
          settle(
            index,
            failedReport(
              names[index] as string,
              'replay',
              {
                code: 'WORKER_EXITED',
                message:
                  `the worker process running it ${how} before the scenario reported a verdict. ` +
                  'Scenario code must not call process.exit or end the process; run it alone with --workers 1 to see it in the foreground.' +
                  (tail === '' ? '' : `\nLast output of the worker:\n${tail}`),
              },
              performance.now() - started,
            ),
          );
          if (next < names.length) startWorker();
        }
        finishIfDone();
      };
      child.on('exit', (code, signal) => {
        const how = signal === null ? `exited with code ${code ?? '?'}` : `was killed by ${signal}`;
        // The worker's last words may still be in the pipe; a grandchild holding the pipe open
        // (tsx's esbuild service) must not hold the verdict back, hence the bound.
        void outputDrained(child, TRAILING_OUTPUT_MS).then(() => onGone(how));
      });
      child.on('error', (error) => onGone(`could not run (${error.message})`));
      giveNext();
    };

    const count = Math.min(options.workers, names.length);
    for (let i = 0; i < count; i++) startWorker();
    finishIfDone();
  });
}

function outputDrained(child: ChildProcess, boundMs: number): Promise<void> {
  const stream = child.stderr;
  if (stream === null || stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, boundMs);
    stream.once('end', done).once('close', done);
  });
}
