import { groupMembers, signalGroup } from './process-group.js';
import { sleepReferenced } from './sleep.js';
import { KILL_WAIT_MS } from './terminate-child.js';

/**
 * Process groups of ACP children still alive in this process. Each child leads a group of its
 * own, so the terminal's Ctrl-C (sent to the foreground group: us) no longer reaches it; this
 * passes SIGINT, SIGTERM and SIGHUP on to every live group, and SIGKILLs what is left when the
 * process exits, so an interrupted run leaves no child behind. Each id counts the children
 * holding it: one freed and given to a new child's group before the first child was disposed is
 * held twice, and stays tracked until both let go.
 */
const live = new Map<number, number>();
const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** Between the forwarded SIGTERM and the SIGKILL of what ignored it, when we exit on the signal. */
const SIGNAL_GRACE_MS = 200;
/** How often the killed groups are probed before we exit on the signal. */
const GONE_PROBE_MS = 5;
let leaving = false;

function onSignal(signal: NodeJS.Signals): void {
  for (const pgid of live.keys()) signalGroup(pgid, 'SIGTERM');
  // Alone on this signal, our listener has replaced Node's default (exit): exit as it would have,
  // after a short grace for the children.
  if (process.listenerCount(signal) !== 1 || leaving) return;
  leaving = true;
  setTimeout(() => {
    const groups = [...live.keys()];
    onExit();
    unwatch();
    // SIGKILL is delivered at once but a process dies when next scheduled (a large one takes a
    // while to free its memory): exit only once nothing of the groups runs, so whoever waited for
    // our exit finds no child alive.
    void groupsGoneWithin(groups, KILL_WAIT_MS).then(() => process.kill(process.pid, signal));
  }, SIGNAL_GRACE_MS);
}

async function groupsGoneWithin(groups: readonly number[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (groups.some((pgid) => groupMembers(pgid).length > 0) && Date.now() < deadline)
    await sleepReferenced(GONE_PROBE_MS);
}

function onExit(): void {
  for (const pgid of live.keys()) signalGroup(pgid, 'SIGKILL');
}

function watch(): void {
  for (const signal of FORWARDED) process.on(signal, onSignal);
  process.on('exit', onExit);
}

function unwatch(): void {
  for (const signal of FORWARDED) process.off(signal, onSignal);
  process.off('exit', onExit);
}

/**
 * Tracks a child's group until `release`; the listeners exist only while some group is live.
 * Releasing twice is releasing once, so a later group given the same id stays tracked.
 */
export function trackGroup(pgid: number): () => void {
  if (live.size === 0) watch();
  live.set(pgid, (live.get(pgid) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const holders = (live.get(pgid) ?? 1) - 1;
    if (holders > 0) return void live.set(pgid, holders);
    live.delete(pgid);
    if (live.size === 0) unwatch();
  };
}
