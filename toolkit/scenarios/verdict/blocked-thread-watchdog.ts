import { isMainThread, Worker } from 'node:worker_threads';
import { deferred } from '../../../harness/runtime/deferred.js';
import { ScenarioError } from '../scenario-error.js';

/**
 * How long past its limit a scenario run in the caller's own thread gets before its code is
 * interrupted: its own deadline reports first unless its code never gives control back.
 */
const GRACE_S = 5;

/** How long an interrupted thread gets to say so before the process is ended after all. */
const KILL_AFTER_S = 5;

/**
 * For a scenario that must run in the caller's thread (a vitest test): a thread of its own that,
 * unless stopped first, interrupts the code running in this thread `GRACE_S` after `seconds`
 * (the inspector's `Runtime.terminateExecution`: a loop or a catastrophic regular expression in
 * a tool, a step or a module being imported stops where it is, and the event loop goes on), and
 * `interrupted` rejects with SCENARIO_TIMEOUT saying what `doing` (`importing its file `, or
 * the run when empty) did not finish. Only code that never yields lets it
 * fire: a run that ends, even by its own timeout, stops it.
 *
 * Where the interruption cannot be made or does not take (no inspector in this Node, the caller
 * not on the main thread as in vitest's `threads` pool, code that Node cannot unwind from such as
 * a raw timer callback), the process is ended `KILL_AFTER_S` later with SCENARIO_TIMEOUT on
 * stderr instead: the test runner then fails the file rather than hang.
 */
export function interruptIfBlocked(
  seconds: number,
  name: string,
  doing = '',
): { readonly interrupted: Promise<never>; readonly stop: () => Promise<void> } {
  const limit = `${doing}did not finish within its time limit of ${seconds} s, and its code never gave control back (a loop that never yields, a catastrophic regular expression)`;
  const { promise: interrupted, reject } = deferred<never>();
  // Raced with the run; a watcher stopped first never rejects it.
  interrupted.catch(() => undefined);
  const watcher = new Worker(WATCHER, {
    eval: true,
    workerData: {
      ms: (seconds + GRACE_S) * 1000,
      killMs: KILL_AFTER_S * 1000,
      interrupt: isMainThread,
      killMessage: `\nSCENARIO_TIMEOUT ${name}: ${limit}: it could not be interrupted, so this process was killed ${GRACE_S + KILL_AFTER_S} s later.\n`,
    },
  });
  watcher.unref();
  watcher.on('message', () => {
    reject(new ScenarioError('SCENARIO_TIMEOUT', `${limit}: it was interrupted ${GRACE_S} s later.`));
    // Heard: the thread runs again, so the kill is called off.
    void watcher.terminate();
  });
  return { interrupted, stop: async () => void (await watcher.terminate()) };
}

// Plain JavaScript run by eval in the thread: it may only require Node's own modules. The session
// is connected at once, while the main thread still answers.
const WATCHER = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
let session;
if (workerData.interrupt) {
  try {
    session = new (require('node:inspector').Session)();
    session.connectToMainThread();
  } catch {
    session = undefined;
  }
}
setTimeout(() => {
  if (session !== undefined) {
    session.post('Runtime.terminateExecution');
    parentPort.postMessage('interrupted');
  }
  setTimeout(() => {
    writeSync(2, workerData.killMessage);
    process.kill(process.pid, 'SIGKILL');
  }, session === undefined ? 0 : workerData.killMs);
}, workerData.ms);
`;
