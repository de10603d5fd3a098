import { Worker } from 'node:worker_threads';

/**
 * How long past its limit a scenario run in the caller's own thread gets before the process is
 * ended: its own deadline reports first unless its code never gives control back.
 */
const GRACE_S = 5;

/**
 * For a scenario that must run in the caller's thread (a vitest test): a thread of its own that,
 * unless stopped first, writes SCENARIO_TIMEOUT naming the scenario to stderr and kills this
 * process `GRACE_S` after `seconds`. Only code that never yields (a loop, a catastrophic regular
 * expression) lets it fire: a run that ends, even by its own timeout, stops it. Ending the process
 * is the only way to stop such code from outside its thread; the test runner then fails the file.
 */
export function killIfBlocked(seconds: number, what: string): { readonly stop: () => Promise<void> } {
  const message =
    `\nSCENARIO_TIMEOUT ${what} did not finish within its time limit of ${seconds} s, and its code never gave ` +
    `control back (a loop that never yields, a catastrophic regular expression): this process was killed ${GRACE_S} s later.\n`;
  const watcher = new Worker(WATCHER, { eval: true, workerData: { ms: (seconds + GRACE_S) * 1000, message } });
  watcher.unref();
  return { stop: async () => void (await watcher.terminate()) };
}

const WATCHER = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
setTimeout(() => {
  writeSync(2, workerData.message);
  process.kill(process.pid, 'SIGKILL');
}, workerData.ms);
`;
