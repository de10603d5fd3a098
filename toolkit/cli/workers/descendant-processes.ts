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
  if (tag === undefined || !existsSync('/proc/self/environ')) return descendantProcesses(root);
  const table = procTable();
  const found = below(table, root);
  const known = new Set([root, process.pid, ...found.map((entry) => entry.pid)]);
  // Only what started since `root` did can have inherited its tag: the others' environments are not read.
  const since = table.find((entry) => entry.pid === root)?.startTime ?? 0;
  const entry = `\0${WORKER_TAG}=${tag}\0`;
  for (const candidate of table) {
    if (known.has(candidate.pid) || candidate.startTime < since) continue;
    let environment;
    try {
      environment = readFileSync(`/proc/${candidate.pid}/environ`, 'latin1');
    } catch {
      continue; // Gone since the listing, or not ours to read.
    }
    if (`\0${environment}`.includes(entry))
      found.push({ pid: candidate.pid, ppid: candidate.ppid, command: candidate.command() });
  }
  return found;
}

/** A process below another, as `ps` would show it. */
export interface DescendantProcess {
  readonly pid: number;
  /** Its parent's pid (0 where unknown). */
  readonly ppid: number;
  readonly command: string;
}

/**
 * Every process below `root` (its children, theirs, …), whatever process group or session each
 * chose: a `detached` child is still its parent's child until that parent exits. Read from /proc
 * where there is one (no process started), else from `ps`.
 */
export function descendantProcesses(root: number = process.pid): DescendantProcess[] {
  return below(existsSync('/proc/self/stat') ? procTable() : psTable(), root);
}

function below(table: readonly TableEntry[], root: number): DescendantProcess[] {
  const under = new Set([root]);
  const found: DescendantProcess[] = [];
  // Parents are not always listed before their children: repeat until nothing new is found.
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of table) {
      if (under.has(entry.pid) || !under.has(entry.ppid)) continue;
      under.add(entry.pid);
      found.push({ pid: entry.pid, ppid: entry.ppid, command: entry.command() });
      grew = true;
    }
  }
  return found;
}

interface TableEntry {
  readonly pid: number;
  readonly ppid: number;
  /** When it started, in clock ticks since boot (0 where unknown). */
  readonly startTime: number;
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
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    entries.push({
      pid: Number(name),
      ppid: Number(fields[1]),
      startTime: Number(fields[19]),
      command: () => procCommand(name),
    });
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
    return [{ pid: Number(match[1]), ppid: Number(match[2]), startTime: 0, command: () => command }];
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
