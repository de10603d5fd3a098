import { readdirSync, readFileSync } from 'node:fs';

/**
 * The live (non-zombie) processes of process group `pgid`. Zombies are left out because an
 * orphan's zombie lingers wherever PID 1 does not reap (containers, microVMs) and is not running
 * anything. Without /proc (macOS), `kill(-pgid, 0)` answers whether any member exists at all.
 */
export function groupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return groupExists(pgid) ? [pgid] : [];
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X')
      members.push(Number(entry));
  }
  return members;
}

/** True while process `pid` exists and is not a zombie. */
export function isRunning(pid: number): boolean {
  const stat = procStat(String(pid));
  if (stat !== undefined) return stat.state !== 'Z' && stat.state !== 'X';
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals every process of the group; a group already gone is not an error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function procStat(pid: string): { state: string; pgrp: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The command name sits in parentheses and may itself contain ") ", so parse from the last one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
}
