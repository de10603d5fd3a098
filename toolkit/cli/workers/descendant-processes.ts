import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

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
