import type { Logger } from '../../harness/runtime/logger.js';
import { SubagentError } from '../seam/errors.js';
import type { ResolvedStartRequest, SubagentRun } from '../seam/types.js';
import { spawnAcpChild } from './acp-child-process.js';
import { connectAcpClient } from './acp-client-connection.js';
import { directoryProblem, type ResolvedAcpProviderConfig } from './acp-provider-config.js';
import { AcpRun, type RunState } from './acp-run.js';
import { childEnv } from './child-env.js';
import { describeExit, stderrSuffix } from './describe-exit.js';
import { openRemoteSession, StartupFailure } from './open-remote-session.js';
import { reportTermination } from './report-termination.js';
import { terminateChild, type Termination } from './terminate-child.js';

export interface AcpRunContext {
  readonly config: ResolvedAcpProviderConfig;
  readonly logger: Logger;
  /** The parent runtime's sessions root; the child writes its logs there. */
  readonly sessionsRoot: string;
  /** The environment the child's is derived from. */
  readonly parentEnv: NodeJS.ProcessEnv;
}

/**
 * Spawns the child, opens its remote session, and hands over the run only then. Any failure on
 * the way stops the child (the whole dispose ladder, awaited) before start rejects.
 */
export async function startAcpRun(request: ResolvedStartRequest, context: AcpRunContext): Promise<SubagentRun> {
  const { config, logger } = context;
  const label = `acp provider "${config.name}" (${request.lineage})`;
  if (request.signal.aborted) {
    throw new SubagentError('ABORTED', `${label}: the request was aborted before the ACP child started; nothing was spawned`, { cause: request.signal.reason });
  }
  const cwd = config.cwd ?? request.parent.session.header.cwd;
  const cwdProblem = directoryProblem(cwd);
  if (cwdProblem !== null) {
    throw new SubagentError('START_FAILED', `${label}: the child's working directory ${JSON.stringify(cwd)} (the parent session's cwd) ${cwdProblem}; configure \`cwd\``);
  }

  const child = spawnAcpChild(
    {
      command: config.command,
      args: config.args,
      cwd,
      env: childEnv(context.parentEnv, config.env, { lineage: request.lineage, sessionsRoot: context.sessionsRoot }),
      stderr: config.stderr,
      label,
    },
    logger,
  );
  const state: RunState = { output: '', cancelRequested: false };
  const conn = connectAcpClient(child, {
    onAgentText: (text) => {
      state.output += text;
    },
    permissionPolicy: () => (state.cancelRequested ? 'reject' : config.permission),
  });

  let sessionId: string;
  try {
    sessionId = await openRemoteSession(conn, child, { cwd, timeoutMs: config.startupTimeoutMs, signal: request.signal });
    // An abort that landed while the session/new answer was being delivered still belongs to start-up.
    if (request.signal.aborted) throw new StartupFailure('aborted', 'session/new', 'start-up was cancelled as the remote session opened', { cause: request.signal.reason });
  } catch (error) {
    const termination = await terminateChild(child, { eofGraceMs: config.disposeEofGraceMs, termGraceMs: config.disposeTermGraceMs });
    conn.close();
    reportTermination(logger, label, child.pid, termination, config);
    throw startError(error, termination, { label, command: config.command, stderrTail: child.stderrTail() });
  }
  return new AcpRun({ request, child, conn, sessionId, state, config, logger, label });
}

function startError(error: unknown, termination: Termination, where: { label: string; command: string; stderrTail: readonly string[] }): SubagentError {
  const failure = error instanceof StartupFailure ? error : new StartupFailure('closed', 'initialize', String(error), { cause: error });
  const stopped = termination.step === 'gone' ? '' : `; the child was stopped (${termination.step})`;
  if (failure.kind === 'aborted') {
    return new SubagentError('ABORTED', `${where.label}: ${failure.message}${stopped}`, { cause: failure });
  }
  return new SubagentError('START_FAILED', `${where.label}: the ACP child ${whatHappened(failure, termination, where.command)}${stopped}${stderrSuffix(where.stderrTail)}`, {
    cause: failure.cause ?? failure,
  });
}

/** A child that died on its own is described by its exit; one that had to be stopped, by what it did wrong. */
function whatHappened(failure: StartupFailure, termination: Termination, command: string): string {
  const diedOnItsOwn = termination.step === 'gone' || termination.step === 'eof';
  if ((failure.kind === 'exited' || failure.kind === 'closed') && diedOnItsOwn) {
    return termination.exit.spawnError ? describeExit(termination.exit, command) : `${describeExit(termination.exit, command)} before answering ${failure.stage}`;
  }
  return failure.message;
}
