import { Worker } from 'node:worker_threads';
import { WORKER_TAG } from './descendant-processes.js';

/**
 * A worker process must not outlive the `nestcast run` that started it, even one killed by
 * SIGKILL, and even while its scenario code never yields (the IPC channel's `disconnect` event
 * then never runs). A thread of its own watches the parent's pid: once this process is orphaned
 * it removes `workRoot` and kills this process's group (the worker and what scenario code started)
 * and every process below it in another group, or orphaned since with its WORKER_TAG.
 */
export function dieWithParent(workRoot: string | undefined): void {
  const watcher = new Worker(WATCHER, {
    eval: true,
    workerData: { parent: process.ppid, workRoot, tag: process.env[WORKER_TAG] },
  });
  watcher.unref();
}

const POLL_MS = 200;

// Plain JavaScript run by eval in the thread: it may only require Node's own modules. Processes
// below this one in other groups (detached) are found through /proc where there is one.
const WATCHER = `
const { workerData } = require('node:worker_threads');
const { existsSync, readdirSync, readFileSync, rmSync } = require('node:fs');
function below() {
  if (!existsSync('/proc/self/stat')) return [];
  const parents = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name)) continue;
    try {
      const stat = readFileSync('/proc/' + name + '/stat', 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const found = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents) if (!found.has(pid) && found.has(ppid)) grew = found.add(pid) !== undefined;
  }
  // Orphaned since they started (a double fork): found by the tag their environment inherited.
  if (workerData.tag !== undefined) {
    const entry = '\\0${WORKER_TAG}=' + workerData.tag + '\\0';
    for (const pid of parents.keys()) {
      try {
        if (('\\0' + readFileSync('/proc/' + pid + '/environ', 'latin1')).includes(entry)) found.add(pid);
      } catch {}
    }
  }
  found.delete(process.pid);
  return [...found];
}
setInterval(() => {
  if (process.ppid === workerData.parent) return;
  if (workerData.workRoot !== undefined) {
    try { rmSync(workerData.workRoot, { recursive: true, force: true }); } catch {}
  }
  for (const pid of below()) for (const target of [-pid, pid]) try { process.kill(target, 'SIGKILL'); } catch {}
  try { process.kill(-process.pid, 'SIGKILL'); } catch {}
  process.kill(process.pid, 'SIGKILL');
}, ${POLL_MS});
`;
