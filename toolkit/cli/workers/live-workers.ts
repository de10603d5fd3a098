import type { ChildProcess } from 'node:child_process';
import { killProcesses, processesBelow } from './descendant-processes.js';

/** Worker processes of this process that have not exited: a signal stops them before this process exits. */
/** Each with the tag its environment carries (see WORKER_TAG). */
const live = new Map<ChildProcess, string>();
let stopping = false;

/** How long a stopped worker gets to remove its work folders and settle its swaps before its group is killed. */
const STOP_GRACE_MS = 1_000;

/** Tracks a worker started in a process group of its own (`detached`) until it exits. */
export function trackWorker(child: ChildProcess, tag: string): void {
  live.set(child, tag);
  child.once('exit', () => live.delete(child));
}

/** True once `stopLiveWorkers` was called: no worker may be started any more. */
export function stoppingWorkers(): boolean {
  return stopping;
}

/**
 * Signals a worker's whole process group: the worker and every process scenario code started in
 * it without leaving the group. A group that is gone already is fine.
 */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: nothing of the group is left.
  }
}

/**
 * On the way out on a signal: SIGTERM to every worker's group (a worker removes its work folders
 * and settles its recording swaps), then SIGKILL to each group after a grace, for a worker whose
 * scenario code never yields. Resolves when every worker is gone or the grace is over.
 */
export async function stopLiveWorkers(): Promise<void> {
  stopping = true;
  const running = [...live.keys()];
  if (running.length === 0) return;
  // Listed now, while each is still its worker's: once a worker is gone, its detached children are nobody's.
  const below = running.flatMap((child) => (child.pid === undefined ? [] : processesBelow(child.pid, live.get(child))));
  const exited = Promise.all(running.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  for (const child of running) signalGroup(child, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)))]);
  clearTimeout(timer);
  for (const child of running) signalGroup(child, 'SIGKILL');
  killProcesses(below);
}

/** Kills a worker whose scenario code never yields, its group, and what it started outside its group. */
export function killWorker(child: ChildProcess): void {
  const below = child.pid === undefined ? [] : processesBelow(child.pid, live.get(child));
  signalGroup(child, 'SIGKILL');
  killProcesses(below);
}
