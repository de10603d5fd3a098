import { spawn, type ChildProcess } from 'node:child_process';
import { failedReport } from '../../scenarios/scenario-report.js';
import { makeWorkerFolder, removeWorkerFolder } from '../../scenarios/work-folders.js';
import type { RunEvidence, ScenarioReport } from '../../scenarios/run-scenario.js';
import { nestcastCliCommand } from '../../scenarios/locate-cli.js';
import { importTimeout } from '../../scenarios/verdict/scenario-deadline.js';
import type { NetworkEscape } from '../../guard/network-guard.js';
import { newWorkerTag, WORKER_TAG } from './descendant-processes.js';
import { killWorker, signalGroup, stoppingWorkers, trackWorker } from './live-workers.js';
import { hasValidSeal, newSealKey, type KeyMessage } from './message-seal.js';
import { isReportMessage, isStartedMessage, type RunMessage, type WorkerRunOptions } from './worker-messages.js';

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
  /** Called once per scenario, in completion order, with its index in `names` (and its evidence when `run.evidence` asked for it). */
  readonly onReport: (index: number, report: ScenarioReport, evidence?: RunEvidence) => void;
}

/** What a pool run found besides the verdicts: the run fails on either. */
export interface PoolResult {
  /** In the order of `names`. */
  readonly reports: ScenarioReport[];
  /** Requests the workers' guards caught, during scenarios or between them. */
  readonly escapes: NetworkEscape[];
  /** Workers that ended badly while holding no scenario (after their last verdict), each described. */
  readonly lostWorkers: string[];
}

const STDERR_TAIL = 2_000;
const TRAILING_OUTPUT_MS = 200;
/**
 * Scenarios a worker holds at once: the one it runs and the next, queued in the worker, so it
 * starts the next without waiting for the parent to read its report and answer.
 */
const IN_FLIGHT = 2;
/**
 * How long past a scenario's time limit its worker is killed. The worker's own deadline fires at
 * the limit and reports where each session stood; only code that never yields (a loop, a
 * catastrophic regular expression) keeps it from doing so within this grace.
 */
const WATCHDOG_GRACE_S = 3;

/**
 * Runs every named scenario in worker processes, each worker taking whole scenarios one at a time
 * from a shared queue. A worker that exits while it holds a scenario (process.exit in scenario
 * code, a crash, a kill) fails the one it was running with WORKER_EXITED, and is replaced for the
 * rest (the one queued behind goes back to the queue: it never started), so every scenario gets a
 * verdict. A worker that ends badly after its last verdict is reported in `lostWorkers`.
 *
 * Each worker runs in a process group of its own, watched from here: a scenario still running
 * `WATCHDOG_GRACE_S` past its time limit (CPU-bound code the worker's own timer cannot interrupt)
 * fails with SCENARIO_TIMEOUT and its worker's group is killed. When a worker exits, whatever is
 * left in its group (processes scenario code started) is killed with it.
 */
export function runInWorkers(names: readonly string[], options: PoolOptions): Promise<PoolResult> {
  const cli = nestcastCliCommand();
  const mode = options.run.mode ?? 'replay';
  const reports: (ScenarioReport | undefined)[] = names.map(() => undefined);
  const escapes: NetworkEscape[] = [];
  const lostWorkers: string[] = [];
  /** Indices handed out to a worker that died before starting them, given out again first. */
  const returned: number[] = [];
  let next = 0;
  let live = 0;
  const pending = (): boolean => returned.length > 0 || next < names.length;
  const take = (): number => returned.shift() ?? next++;

  return new Promise((resolve) => {
    const settle = (index: number, report: ScenarioReport, evidence?: RunEvidence): void => {
      reports[index] = report;
      options.onReport(index, report, evidence);
    };
    const finishIfDone = (): void => {
      if (live === 0 && !pending()) resolve({ reports: reports as ScenarioReport[], escapes, lostWorkers });
    };

    /** Starts a worker holding one scenario; the function it returns fills the worker's other slots. */
    const startWorker = (): (() => void) => {
      live++;
      // The worker's work folders go here: removed when it is gone, even killed mid-run.
      const workRoot = makeWorkerFolder();
      const args = [...cli.args, 'scenario-worker', '--work-root', workRoot];
      // Decided as the worker starts: a replaying worker drops the keys before any scenario module loads.
      if (options.run.mode === 'record') args.push('--record');
      // Inherited by whatever scenario code starts: found by it even once orphaned.
      const tag = newWorkerTag();
      const child: ChildProcess = spawn(cli.command, args, {
        cwd: options.cwd,
        env: { ...options.env, [WORKER_TAG]: tag },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        // A group of its own: killed whole, and out of reach of a Ctrl-C this process handles.
        detached: true,
      });
      trackWorker(child, tag);
      // First on the channel, before the worker loads any scenario module: what scenario code sends without it is not a verdict.
      const key = newSealKey();
      const keyMessage: KeyMessage = { type: 'key', key };
      child.send(keyMessage, (error) => {
        if (error) child.kill('SIGKILL');
      });
      /** Handed to this worker and not yet reported, in the order it runs them: the first is running. */
      const holding: { index: number; started: number }[] = [];
      let stderrTail = '';
      child.stdout?.setEncoding('utf8').on('data', (text: string) => options.stdout(text));
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
        options.stderr(text);
      });

      /** Kills the worker when the running scenario overstays its limit; re-armed as the scenario moves on. */
      let watchdog: NodeJS.Timeout | undefined;
      /** The worker was killed from here, the scenario it ran given its verdict first. */
      let killedHere = false;
      const failRunningAndKill = (failure: Parameters<typeof failedReport>[2]): void => {
        const running = holding.shift();
        if (running === undefined) return;
        killedHere = true;
        clearTimeout(watchdog);
        settle(
          running.index,
          failedReport(names[running.index] as string, mode, failure, performance.now() - running.started),
        );
        killWorker(child);
      };
      const watch = (seconds: number, what: string): void => {
        clearTimeout(watchdog);
        watchdog = setTimeout(
          () =>
            failRunningAndKill({
              code: 'SCENARIO_TIMEOUT',
              message:
                `${what}did not finish within its time limit of ${seconds} s, and its code never gave control back ` +
                `(a loop that never yields, a catastrophic regular expression): its worker process was killed ${WATCHDOG_GRACE_S} s later. ` +
                'Find the code that never yields, or raise the limit with `timeout` in the scenario definition or --timeout <seconds>.',
            }),
          (seconds + WATCHDOG_GRACE_S) * 1000,
        );
      };
      /** The scenario at the head of `holding` has started in the worker: its import is watched first. */
      const watchImport = (): void => {
        if (holding[0] !== undefined) watch(importTimeout(options.run.timeout), 'importing its file ');
        else clearTimeout(watchdog);
      };

      const topUp = (limit = IN_FLIGHT): void => {
        while (holding.length < limit && pending() && child.connected) {
          const index = take();
          holding.push({ index, started: performance.now() });
          const message: RunMessage = { type: 'run', name: names[index] as string, options: options.run };
          child.send(message, (error) => {
            // A worker already gone: its exit handler gives the scenario its verdict.
            if (error) child.kill('SIGKILL');
          });
        }
        if (holding.length === 0 && child.connected) child.disconnect();
      };

      child.on('message', (message: unknown) => {
        const running = holding[0];
        if (running === undefined || killedHere || !(isStartedMessage(message) || isReportMessage(message))) return;
        if (!hasValidSeal(message, key)) {
          failRunningAndKill({
            code: 'VERDICT_FORGED',
            message:
              `scenario code sent its worker's parent a "${message.type}" message of its own (process.send), which is not the runner's: ` +
              'the verdict is given by nestcast when the scenario returns, so the scenario fails and its worker process was killed. ' +
              'Remove the process.send call from the scenario, its tools or what they load.',
          });
          return;
        }
        if (message.name !== names[running.index]) return;
        if (isStartedMessage(message)) {
          watch(message.timeout, '');
          return;
        }
        if (!isReportMessage(message)) return;
        holding.shift();
        escapes.push(...message.escapes);
        settle(running.index, message.report, message.evidence);
        // The next queued scenario starts now, in the worker: its time counts from here.
        if (holding[0] !== undefined) holding[0].started = performance.now();
        watchImport();
        topUp();
      });
      let exited = false;
      const onGone = (how: string, clean: boolean): void => {
        if (exited) return;
        exited = true;
        live--;
        clearTimeout(watchdog);
        removeWorkerFolder(workRoot);
        const tail = stderrTail.trim();
        const lastOutput = tail === '' ? '' : `\nLast output of the worker:\n${tail}`;
        // After a kill from here the one running has its verdict already: what is left never started.
        const queued = holding.splice(0);
        const running = killedHere ? undefined : queued.shift();
        // The one queued behind never started: it goes back to the queue for another worker.
        returned.unshift(...queued.map((held) => held.index));
        if (running !== undefined) {
          settle(
            running.index,
            failedReport(
              names[running.index] as string,
              mode,
              {
                code: 'WORKER_EXITED',
                message:
                  `the worker process running it ${how} before the scenario reported a verdict. ` +
                  'Scenario code must not call process.exit or end the process: the verdict is the runner’s, given when the scenario returns.' +
                  lastOutput,
              },
              performance.now() - running.started,
            ),
          );
        }
        if ((running !== undefined || killedHere) && pending() && !stoppingWorkers()) startWorker()();
        else if (running === undefined && !killedHere && !clean) {
          lostWorkers.push(`a worker process ${how} after its last scenario's verdict.${lastOutput}`);
        }
        finishIfDone();
      };
      child.on('exit', (code, signal) => {
        // Whatever scenario code started in the worker's group ends with it.
        signalGroup(child, 'SIGKILL');
        const how = signal === null ? `exited with code ${code ?? '?'}` : `was killed by ${signal}`;
        // The worker's last words may still be in the pipe; a grandchild holding the pipe open
        // (tsx's esbuild service) must not hold the verdict back, hence the bound.
        void outputDrained(child, TRAILING_OUTPUT_MS).then(() => onGone(how, code === 0));
      });
      child.on('error', (error) => onGone(`could not run (${error.message})`, false));
      topUp(1);
      watchImport();
      return () => topUp();
    };

    const count = Math.min(options.workers, names.length);
    // One scenario each first, so a short queue is spread over every worker; then the queued ones.
    const fillers = Array.from({ length: count }, () => startWorker());
    for (const fill of fillers) fill();
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
