import type { AcpChildProcess, ChildExit } from './acp-child-process.js';

export interface DisposeGraces {
  readonly eofGraceMs: number;
  readonly termGraceMs: number;
}

/** Which rung of the ladder the child left on. `gone`: it had exited (or never started) before teardown began. */
export type TerminationStep = 'gone' | 'eof' | 'sigterm' | 'sigkill';

export interface Termination {
  readonly step: TerminationStep;
  readonly exit: ChildExit;
}

/**
 * Close stdin, wait, SIGTERM, wait, SIGKILL, wait for the exit. The EOF rung comes first because
 * an ACP agent treats EOF as "flush and exit", which a signal would cut short.
 */
export async function terminateChild(child: AcpChildProcess, graces: DisposeGraces): Promise<Termination> {
  if (child.exit !== undefined) return { step: 'gone', exit: child.exit };
  child.stdin.end();
  const afterEof = await exitWithin(child, graces.eofGraceMs);
  if (afterEof) return { step: 'eof', exit: afterEof };
  child.signal('SIGTERM');
  const afterTerm = await exitWithin(child, graces.termGraceMs);
  if (afterTerm) return { step: 'sigterm', exit: afterTerm };
  child.signal('SIGKILL');
  return { step: 'sigkill', exit: await child.exited };
}

function exitWithin(child: AcpChildProcess, ms: number): Promise<ChildExit | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    void child.exited.then((exit) => {
      clearTimeout(timer);
      resolve(exit);
    });
  });
}
