import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * The variable a worker process is started with, holding a tag of its own that every process
 * started below it inherits with the environment: what scenario code started and left behind is
 * found by it even once its parent has exited (a double fork makes it nobody's child).
 */
export const WORKER_TAG = 'NESTCAST_WORKER_TAG';

export function newWorkerTag(): string {
  return randomUUID();
}

/**
 * Every process below `root` (see `descendantProcesses`) and, where /proc shows environments,
 * every other process whose environment holds `WORKER_TAG`=`tag`: one started below and
 * orphaned since. A process that cleared its environment, or a system without /proc, shows only
 * the descendants.
 */
export function processesBelow(root: number, tag: string | undefined): DescendantProcess[] {
  const found = descendantProcesses(root);
  if (tag === undefined || !existsSync('/proc/self/environ')) return found;
  const known = new Set([root, process.pid, ...found.map((entry) => entry.pid)]);
  const entry = `\0${WORKER_TAG}=${tag}\0`;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || known.has(Number(name))) continue;
    let environment;
    try {
      environment = readFileSync(`/proc/${name}/environ`, 'latin1');
    } catch {
      continue; // Gone since the listing, or not ours to read.
    }
    if (`\0${environment}`.includes(entry)) found.push({ pid: Number(name), command: procCommand(name) });
  }
  return found;
}

/** A process below another, as `ps` would show it. */
export interface DescendantProcess {
  readonly pid: number;
  readonly command: string;
}

/**
 * Every process below `root` (its children, theirs, …), whatever process group or session each
 * chose: a `detached` child is still its parent's child until that parent exits. Read from /proc
 * where there is one (no process started), else from `ps`.
 */
export function descendantProcesses(root: number = process.pid): DescendantProcess[] {
  const table = existsSync('/proc/self/stat') ? procTable() : psTable();
  const below = new Set([root]);
  const found: DescendantProcess[] = [];
  // Parents are not always listed before their children: repeat until nothing new is found.
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of table) {
      if (below.has(entry.pid) || !below.has(entry.ppid)) continue;
      below.add(entry.pid);
      found.push({ pid: entry.pid, command: entry.command() });
      grew = true;
    }
  }
  return found;
}

interface TableEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly command: () => string;
}

function procTable(): TableEntry[] {
  const entries: TableEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // Gone since the listing.
    }
    // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so fields count from the last `)`.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    entries.push({ pid: Number(name), ppid, command: () => procCommand(name) });
  }
  return entries;
}

function procCommand(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '?';
  }
}

function psTable(): TableEntry[] {
  const text = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return text.split('\n').flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (match === null) return [];
    const command = match[3] as string;
    return [{ pid: Number(match[1]), ppid: Number(match[2]), command: () => command }];
  });
}

/** SIGKILL to each process and to the group it leads, if it leads one; one already gone is fine. */
export function killProcesses(processes: readonly DescendantProcess[]): void {
  for (const { pid } of processes) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // ESRCH: gone already, or not a group leader.
      }
    }
  }
}
