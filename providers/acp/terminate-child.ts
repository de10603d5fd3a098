import type { ChildExit } from './acp-channel.js';
import { sleepReferenced } from './sleep.js';

export interface DisposeGraces {
  readonly eofGraceMs: number;
  readonly termGraceMs: number;
}

/** After SIGKILL the kernel ends a group within milliseconds; past this, something is wrong and is reported. */
export const KILL_WAIT_MS = 1_000;
/**
 * Once the leader has exited, the rest of the group is probed (a grandchild's exit raises no
 * event here): first soon, then less often, so a long grace does not burn CPU scanning /proc.
 */
const FIRST_PROBE_MS = 5;
const MAX_PROBE_MS = 50;

/**
 * Which rung of the ladder left no process of the group alive. `gone`: nothing was alive when
 * teardown began. `survived`: processes outlived SIGKILL (e.g. stuck in uninterruptible sleep).
 */
export type TerminationStep = 'gone' | 'eof' | 'sigterm' | 'sigkill' | 'survived';

export interface Termination {
  readonly step: TerminationStep;
  readonly exit: ChildExit;
  /** Pids still alive when the ladder gave up (`survived` only). */
  readonly survivors?: readonly number[];
}

/** The process group the ladder works on. */
export interface LadderTarget {
  /** Settles when the group leader has exited (or never started). */
  readonly exited: Promise<ChildExit>;
  exit(): ChildExit | undefined;
  /** Closes the leader's stdin. */
  endInput(): void;
  /** Live (non-zombie) processes of the group right now. */
  members(): readonly number[];
  signal(signal: NodeJS.Signals): void;
}

/**
 * Close stdin, wait, SIGTERM the group, wait, SIGKILL the group, wait. The EOF rung comes first
 * because an ACP agent treats EOF as "flush and exit", which a signal would cut short; it is
 * skipped when the leader has already left (its helpers do not read its stdin). Each rung ends
 * only when no process of the group is left, checked rather than assumed from the leader's exit.
 */
export async function terminateChild(target: LadderTarget, graces: DisposeGraces): Promise<Termination> {
  const alreadyExited = target.exit();
  if (alreadyExited !== undefined && target.members().length === 0) return { step: 'gone', exit: alreadyExited };
  if (alreadyExited === undefined) {
    target.endInput();
    const afterEof = await groupGoneWithin(target, graces.eofGraceMs);
    if (afterEof) return { step: 'eof', exit: afterEof };
  }
  target.signal('SIGTERM');
  const afterTerm = await groupGoneWithin(target, graces.termGraceMs);
  if (afterTerm) return { step: 'sigterm', exit: afterTerm };
  target.signal('SIGKILL');
  const afterKill = await groupGoneWithin(target, KILL_WAIT_MS);
  if (afterKill) return { step: 'sigkill', exit: afterKill };
  return { step: 'survived', exit: target.exit() ?? { code: null, signal: null }, survivors: target.members() };
}

/** The leader's exit once it and every other group member are gone within `ms`; undefined otherwise. */
async function groupGoneWithin(target: LadderTarget, ms: number): Promise<ChildExit | undefined> {
  const deadline = Date.now() + ms;
  const exit = await exitWithin(target.exited, ms);
  if (exit === undefined) {
    // The grace ran out before Node delivered the leader's exit, which on a busy machine comes late:
    // judged by the group itself, not by which event was delivered first. Nothing of it left
    // alive means this rung ended it, and its exit is on the way.
    return target.members().length === 0 ? target.exited : undefined;
  }
  let probe = FIRST_PROBE_MS;
  while (target.members().length > 0) {
    if (Date.now() >= deadline) return undefined;
    await sleepReferenced(Math.min(probe, Math.max(deadline - Date.now(), 1)));
    probe = Math.min(probe * 2, MAX_PROBE_MS);
  }
  return exit;
}

function exitWithin(exited: Promise<ChildExit>, ms: number): Promise<ChildExit | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    void exited.then((exit) => {
      clearTimeout(timer);
      resolve(exit);
    });
  });
}
