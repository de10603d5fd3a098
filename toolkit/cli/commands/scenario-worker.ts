import { resolve } from 'node:path';
import { assertNoNetworkEscapes } from '../../guard/assert-no-network-escapes.js';
import type { NetworkEscape } from '../../guard/network-guard.js';
import { runScenarioFile } from '../../scenarios/run-scenario-file.js';
import { describeError } from '../../../harness/error-text.js';
import type { Command } from '../command.js';
import { runWithCleanExit } from '../clean-exit-run.js';
import { runKeyless } from '../keyless-run.js';
import { parseCommandLine } from '../parse.js';
import { runOptions } from './run.js';
import type { RunEvidence, ScenarioReport } from '../../scenarios/run-scenario.js';
import { killProcesses, processesBelow, WORKER_TAG, type DescendantProcess } from '../workers/descendant-processes.js';
import { dieWithParent } from '../workers/die-with-parent.js';
import { isKeyMessage, sealed } from '../workers/message-seal.js';
import { isRunMessage, type ReportMessage, type RunMessage, type StartedMessage } from '../workers/worker-messages.js';

const help = `Usage: nestcast scenario-worker [--work-root <dir>] [--record]

Internal: a worker process of \`nestcast run\` (keyless) or, with --record, of \`nestcast record\`
(keys kept, no network guard). It takes whole scenarios over its IPC channel, one at a time, runs
each and sends back the report. It exits when the parent closes the channel, and kills itself, its process group and
--work-root when the parent is gone (even killed), whatever its scenario code is doing. Its work
folders go in --work-root (default: the temp dir), a folder the parent removes when the worker is
gone.`;

export const scenarioWorkerCommand: Command = {
  name: 'scenario-worker',
  summary: 'Internal: a worker process of nestcast run --workers',
  help,
  async run(argv, io) {
    const { values } = parseCommandLine(argv, { 'work-root': { type: 'string' }, record: { type: 'boolean' } });
    const send = process.send?.bind(process);
    if (send === undefined) {
      io.stderr(
        'nestcast scenario-worker: started without an IPC channel; it is started by `nestcast run --workers N`, not by hand.\n',
      );
      return 2;
    }
    dieWithParent(values['work-root']);
    // Stopped by its parent, or at its end: whatever runs below it goes too, in whatever group it
    // chose (tsx's esbuild service, what a scenario module started while loading).
    const killBelow = () => killProcesses(below());
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, killBelow);
    let current: RunMessage | undefined;
    const targets = () => (current === undefined ? [] : [resolve(current.options.recordingsDir, current.name)]);
    // Replay: keyless, key-like variables gone and the guard armed before the first scenario module
    // loads. Record: keys kept, no guard. Either way Ctrl-C removes this worker's work folders.
    const around = (work: (escapes: () => readonly NetworkEscape[]) => Promise<number>) =>
      values.record === true
        ? runWithCleanExit(targets, () => work(() => []), { workFoldersIn: values['work-root'] })
        : runKeyless(targets, (guard) => work(() => guard.escapes()), { workFoldersIn: values['work-root'] });
    return around(async (escapes) => {
      let reported = 0;
      const newEscapes = () => {
        const all = escapes();
        const fresh = all.slice(reported);
        reported = all.length;
        return fresh;
      };
      // One scenario at a time, in the order given: the parent hands out the next only after a report.
      let queue = Promise.resolve();
      /** The parent's key, its first message: every message sent back is sealed with it (see message-seal). */
      let key: string | undefined;
      process.on('message', (message: unknown) => {
        if (isKeyMessage(message)) key ??= message.key;
        if (!isRunMessage(message) || key === undefined) return;
        const sealedSend = sealWith(key, send);
        queue = queue.then(async () => {
          current = message;
          await runOne(message, io.env, newEscapes, sealedSend);
          current = undefined;
        });
      });
      await new Promise<void>((done) => process.once('disconnect', done));
      await queue;
      killBelow();
      // A request after the last report (a timer a scenario left) has no report to ride on.
      try {
        assertNoNetworkEscapes(newEscapes());
      } catch (error) {
        io.stderr(`nestcast scenario-worker: ${describeError(error)}\n`);
        return 1;
      }
      return 0;
    });
  },
};

/** `send`, each message sealed with `key` first. */
function sealWith(key: string, send: NonNullable<typeof process.send>): NonNullable<typeof process.send> {
  return ((message: object, ...rest: unknown[]) =>
    (send as (...args: unknown[]) => boolean)(sealed(message, key), ...rest)) as NonNullable<typeof process.send>;
}

// Read once as the worker starts: scenario code changing its environment does not hide what it started.
const tag = process.env[WORKER_TAG];

/** Every process below this worker, those orphaned since they started included (see WORKER_TAG). */
function below(): DescendantProcess[] {
  return processesBelow(process.pid, tag);
}

async function runOne(
  message: RunMessage,
  env: NodeJS.ProcessEnv,
  newEscapes: () => ReportMessage['escapes'],
  send: NonNullable<typeof process.send>,
): Promise<void> {
  // The IPC channel would keep the event loop alive: unref'd while the scenario runs, a scenario
  // that leaves nothing to wait on drains the loop and fails SCENARIO_STALLED, as in a serial run.
  process.channel?.unref();
  let report;
  let evidence: RunEvidence | undefined;
  /**
   * What ran below this worker as the scenario started (tsx's esbuild service, what its module
   * started while loading); none when it never started (its import failed): what loading started
   * is killed with the worker, without a failure.
   */
  let before: readonly DescendantProcess[] | undefined;
  try {
    report = await runScenarioFile(message.options.scenariosDir, message.name, {
      ...runOptions(message.options, env),
      ...(message.options.evidence === true ? { onEvidence: (left: RunEvidence) => void (evidence = left) } : {}),
      onStarted: (timeout) => {
        before = below();
        const started: StartedMessage = { type: 'started', name: message.name, timeout };
        send(started);
      },
    });
  } finally {
    process.channel?.ref();
  }
  if (before !== undefined) report = withLeftRunning(report, before);
  const reply: ReportMessage = {
    type: 'report',
    name: message.name,
    report,
    escapes: newEscapes(),
    ...(evidence !== undefined ? { evidence } : {}),
  };
  await new Promise<void>((resolve) => send(reply, undefined, {}, () => resolve()));
}

/**
 * esbuild's service, started by this worker itself the first time tsx transforms a module it has
 * not cached (a provider imported lazily mid-run): one per process, shared by whatever in the
 * process uses esbuild, and gone with the worker. Not something the scenario left behind.
 */
function isOwnModuleLoader(entry: DescendantProcess): boolean {
  return entry.ppid === process.pid && /(^|\/)esbuild(\.exe)? --service=\S+ --ping$/.test(entry.command);
}

/**
 * A process scenario code started and left running is killed now, and fails the scenario: it
 * would outlive the run (holding its output pipe open, writing into the next scenario's folders).
 */
function withLeftRunning(report: ScenarioReport, before: readonly DescendantProcess[]): ScenarioReport {
  const known = new Set(before.map((entry) => entry.pid));
  const left = below().filter((entry) => !known.has(entry.pid) && !isOwnModuleLoader(entry));
  if (left.length === 0) return report;
  killProcesses(left);
  const listed = left.map((entry) => `pid ${entry.pid} (${entry.command})`).join(', ');
  const failure = {
    code: 'PROCESS_LEFT_RUNNING' as const,
    message: `${report.name}: scenario code left ${left.length === 1 ? 'a process' : `${left.length} processes`} running after the scenario ended, now killed: ${listed}. End what a tool or provider starts before it returns (or in its dispose).`,
  };
  return { ...report, passed: false, failures: [...report.failures, failure] };
}
