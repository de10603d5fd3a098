import { Worker } from 'node:worker_threads';

/**
 * A worker process must not outlive the `nestcast run` that started it, even one killed by
 * SIGKILL, and even while its scenario code never yields (the IPC channel's `disconnect` event
 * then never runs). A thread of its own watches the parent's pid: once this process is orphaned
 * it removes `workRoot` and kills this process's group (the worker and what scenario code started).
 */
export function dieWithParent(workRoot: string | undefined): void {
  const watcher = new Worker(WATCHER, { eval: true, workerData: { parent: process.ppid, workRoot } });
  watcher.unref();
}

const POLL_MS = 200;

const WATCHER = `
const { workerData } = require('node:worker_threads');
const { rmSync } = require('node:fs');
setInterval(() => {
  if (process.ppid === workerData.parent) return;
  if (workerData.workRoot !== undefined) {
    try { rmSync(workerData.workRoot, { recursive: true, force: true }); } catch {}
  }
  try { process.kill(-process.pid, 'SIGKILL'); } catch {}
  process.kill(process.pid, 'SIGKILL');
}, ${POLL_MS});
`;
