import type { Logger } from '../../harness/runtime/logger.js';
import { SubagentError } from '../seam/errors.js';
import type { ResolvedStartRequest, SubagentRun } from '../seam/types.js';
import type { AcpChannel } from './acp-channel.js';
import { spawnAcpChild } from './acp-child-process.js';
import { connectAcpClient } from './acp-client-connection.js';
import { directoryProblem, isTimerDelay, type ResolvedAcpProviderConfig } from './acp-provider-config.js';
import { AcpRun, type RunState } from './acp-run.js';
import { BoundedHead } from './bounded-output.js';
import { childEnv } from './child-env.js';
import { describeExit, stderrSuffix } from './describe-exit.js';
import { junkSuffix } from './junk-suffix.js';
import { openRemoteSession, StartupFailure } from './open-remote-session.js';
import { reportTermination } from './report-termination.js';
import type { Termination } from './terminate-child.js';

/** The child's answer is kept up to this size; the rest is counted, so a flood cannot exhaust memory. */
export const MAX_OUTPUT_CHARS = 1024 * 1024;
/**
 * A child that never got a session has done nothing worth flushing: start-up failures close its
 * stdin, SIGTERM its group and then SIGKILL it after these short graces, so a cancel settles
 * within about 100 ms and a rejected start has released everything.
 */
export const STARTUP_GRACES = Object.freeze({ eofGraceMs: 20, termGraceMs: 40 });

export interface AcpRunContext {
  readonly config: ResolvedAcpProviderConfig;
  readonly logger: Logger;
  /** The parent runtime's sessions root; the child writes its logs there. */
  readonly sessionsRoot: string;
  /** The environment the child's is derived from. */
  readonly parentEnv: NodeJS.ProcessEnv;
}

/**
 * Spawns the child, opens its remote session, and hands over the run only then. `signal` aborts
 * on the request's signal or the provider's dispose. Any failure on the way stops the child's
 * whole group, checked gone, before start rejects; all of it within `startupTimeoutMs` plus the
 * short kill.
 */
export async function startAcpRun(
  request: ResolvedStartRequest,
  context: AcpRunContext,
  signal: AbortSignal,
  onDisposed?: (run: SubagentRun) => void,
): Promise<SubagentRun> {
  const { config, logger } = context;
  const label = `acp provider "${config.name}" (${request.lineage})`;
  if (signal.aborted) {
    throw new SubagentError(
      'ABORTED',
      `${label}: the request was aborted before the ACP child started; nothing was spawned`,
      { cause: signal.reason },
    );
  }
  if (request.idleTimeoutMs !== undefined && !isTimerDelay(request.idleTimeoutMs)) {
    throw new SubagentError(
      'INVALID_REQUEST',
      `${label}: idleTimeoutMs must be a positive number of milliseconds no greater than 2147483647, got ${String(request.idleTimeoutMs)}`,
    );
  }
  if (request.parent.disposed) {
    throw new SubagentError(
      'PARENT_DISPOSED',
      `${label}: the parent agent ${request.parent.lineage} is disposed; nothing was spawned`,
    );
  }
  const cwd = config.cwd ?? request.parent.session.header.cwd;
  const cwdProblem = directoryProblem(cwd);
  if (cwdProblem !== null) {
    throw new SubagentError(
      'START_FAILED',
      `${label}: the child's working directory ${JSON.stringify(cwd)} (the parent session's cwd) ${cwdProblem}; configure \`cwd\``,
    );
  }
  const spec = {
    command: config.command,
    args: config.args,
    cwd,
    env: childEnv(context.parentEnv, config.env, {
      lineage: request.lineage,
      sessionsRoot: context.sessionsRoot,
      modelEndpoint: config.modelEndpoint,
    }),
    stderr: config.stderr,
    label,
    lineage: request.lineage,
  };
  const channel = (config.channel ?? spawnAcpChild)(spec, logger);
  const state: RunState = {
    output: new BoundedHead(MAX_OUTPUT_CHARS),
    cancelRequested: false,
    sessionId: undefined,
    lastFrameAt: Date.now(),
    invalidUpdates: [],
  };
  const conn = connectAcpClient(channel, {
    onAgentText: (text) => state.output.append(text),
    sessionId: () => state.sessionId,
    heard: () => {
      state.lastFrameAt = Date.now();
    },
    permissionPolicy: () => (state.cancelRequested ? 'reject' : config.permission),
    onInvalidUpdate: (invalid) => state.invalidUpdates.push(invalid),
  });
  try {
    state.sessionId = await openRemoteSession(conn, channel, { cwd, timeoutMs: config.startupTimeoutMs, signal });
    // An abort that landed while the session/new answer was being delivered still belongs to start-up.
    if (signal.aborted)
      throw new StartupFailure('aborted', 'session/new', 'start-up was cancelled as the remote session opened', {
        cause: signal.reason,
      });
    // A parent torn down while the child started gets no child: stop it like a cancelled start-up.
    if (request.parent.disposed)
      throw new StartupFailure(
        'parent-disposed',
        'session/new',
        `the parent agent ${request.parent.lineage} was disposed during start-up`,
      );
  } catch (error) {
    const termination = await channel.terminate(STARTUP_GRACES);
    conn.close();
    reportTermination(logger, label, channel.pid, termination, config, channel.junk());
    throw startError(error, termination, { label, command: config.command, channel, spec });
  }
  const run: AcpRun = new AcpRun({
    request,
    channel,
    conn,
    sessionId: state.sessionId,
    state,
    config,
    logger,
    label,
    idleTimeoutMs: request.idleTimeoutMs ?? config.idleTimeoutMs,
    onDisposed: () => onDisposed?.(run),
  });
  return run;
}

interface FailurePlace {
  readonly label: string;
  readonly command: string;
  readonly channel: AcpChannel;
  readonly spec: { readonly cwd: string; readonly env: Record<string, string> };
}

function startError(error: unknown, termination: Termination, where: FailurePlace): SubagentError {
  const failure =
    error instanceof StartupFailure
      ? error
      : new StartupFailure('closed', 'initialize', String(error), { cause: error });
  const stopped =
    termination.step === 'gone' || diedOnItsOwn(failure, termination)
      ? ''
      : `; the child was stopped (${termination.step})`;
  if (failure.kind === 'aborted' || failure.kind === 'parent-disposed') {
    return new SubagentError(
      failure.kind === 'aborted' ? 'ABORTED' : 'PARENT_DISPOSED',
      `${where.label}: ${failure.message}${stopped}`,
      { cause: failure },
    );
  }
  const overflow = where.channel.overflow();
  const what = overflow ? overflow.message.replace(/^the ACP child /, '') : whatHappened(failure, termination, where);
  return new SubagentError(
    'START_FAILED',
    `${where.label}: the ACP child ${what}${stopped}${junkSuffix(where.channel.junk())}${stderrSuffix(where.channel.stderrTail())}`,
    { cause: overflow ?? failure.cause ?? failure },
  );
}

/** The child left by itself (exit code, no signal of ours) after failing start-up by exiting or closing. */
function diedOnItsOwn(failure: StartupFailure, termination: Termination): boolean {
  if (failure.kind !== 'exited' && failure.kind !== 'closed') return false;
  return (
    termination.step === 'gone' ||
    termination.step === 'eof' ||
    termination.exit.code !== null ||
    termination.exit.spawnError !== undefined
  );
}

/** A child that died on its own is described by its exit; one that had to be stopped, by what it did wrong. */
function whatHappened(failure: StartupFailure, termination: Termination, where: FailurePlace): string {
  if (diedOnItsOwn(failure, termination)) {
    const exit = describeExit(termination.exit, where.command, { path: where.spec.env['PATH'], cwd: where.spec.cwd });
    return termination.exit.spawnError ? exit : `${exit} before answering ${failure.stage}`;
  }
  return failure.message;
}
