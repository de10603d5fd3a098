import { methods, RequestError, type ClientConnection } from '@agentclientprotocol/sdk';
import { describeError } from '../../harness/error-text.js';
import { deferred } from '../../harness/runtime/deferred.js';
import type { Logger } from '../../harness/runtime/logger.js';
import type { ResolvedStartRequest, SubagentResult, SubagentRun, SubagentStopReason } from '../seam/types.js';
import type { AcpChannel } from './acp-channel.js';
import type { ResolvedAcpProviderConfig } from './acp-provider-config.js';
import type { BoundedHead } from './bounded-output.js';
import { describeExit, describeRpcError, stderrSuffix } from './describe-exit.js';
import { junkSuffix } from './junk-suffix.js';
import { reportTermination } from './report-termination.js';
import type { InvalidSessionUpdate } from './session-update-validator.js';
import { settledWithin } from './sleep.js';
import { subagentStopReason } from './stop-reason.js';

/** Shared with the client callbacks, which run before the run object exists. */
export interface RunState {
  readonly output: BoundedHead;
  cancelRequested: boolean;
  sessionId: string | undefined;
  /** When the child last sent a frame (the idle timer measures from it). */
  lastFrameAt: number;
  /** `session/update`s the ACP schema refused: reported on the run's result, never only dropped. */
  readonly invalidUpdates: InvalidSessionUpdate[];
}

export interface AcpRunParts {
  readonly request: ResolvedStartRequest;
  readonly channel: AcpChannel;
  readonly conn: ClientConnection;
  readonly sessionId: string;
  readonly state: RunState;
  readonly config: ResolvedAcpProviderConfig;
  readonly logger: Logger;
  readonly label: string;
  readonly idleTimeoutMs: number;
  /** Told once the run's dispose resolved (the provider stops tracking it). */
  readonly onDisposed?: () => void;
}

/**
 * When the prompt fails because the connection died, the exit usually lands within a few
 * milliseconds; waiting this long lets the diagnostic name the exit code.
 */
const EXIT_REPORT_WAIT_MS = 500;

/** A ready ACP child: one `session/prompt`, settled by the child's answer, its death, its silence, or a local cancel. */
export class AcpRun implements SubagentRun {
  readonly id: string;
  readonly result: Promise<SubagentResult>;
  private readonly outcome = deferred<SubagentResult>();
  private settled = false;
  private disposal: Promise<void> | undefined;
  private cancelSent: Promise<void> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly onAbort = (): void => this.cancel('the request signal was aborted');

  constructor(private readonly parts: AcpRunParts) {
    this.id = parts.request.runId;
    this.result = this.outcome.promise;
    parts.request.signal.addEventListener('abort', this.onAbort, { once: true });
    parts.state.lastFrameAt = Date.now();
    this.armIdleTimer();
    this.prompt();
  }

  /** Settles `aborted` at once with the output so far, then tells the child best-effort. */
  cancel(reason = 'cancelled by the parent'): void {
    if (this.settled) return;
    this.parts.state.cancelRequested = true;
    this.finish('aborted', `cancelled: ${reason}`);
    this.cancelSent = this.parts.conn.agent
      .notify(methods.agent.session.cancel, { sessionId: this.parts.sessionId })
      .catch(() => undefined);
  }

  /** Resolves within disposeEofGraceMs + disposeTermGraceMs + 1.25 s, with no process of the child's group left. */
  dispose(): Promise<void> {
    return (this.disposal ??= this.teardown());
  }

  private async teardown(): Promise<void> {
    const { request, channel, conn, config, logger, label } = this.parts;
    request.signal.removeEventListener('abort', this.onAbort);
    this.cancel('the run was disposed');
    const began = Date.now();
    // The cancel must reach the pipe before stdin closes, or the queued write fails after end. It
    // comes out of the EOF grace, so a child that stopped reading stdin cannot stretch dispose.
    if (this.cancelSent) await settledWithin(this.cancelSent, config.disposeEofGraceMs);
    const eofGraceMs = Math.max(config.disposeEofGraceMs - (Date.now() - began), 1);
    const termination = await channel.terminate({ eofGraceMs, termGraceMs: config.disposeTermGraceMs });
    conn.close();
    reportTermination(logger, label, channel.pid, termination, config, channel.junk());
    this.parts.onDisposed?.();
  }

  private armIdleTimer(): void {
    const { state, idleTimeoutMs } = this.parts;
    const due = state.lastFrameAt + idleTimeoutMs - Date.now();
    this.idleTimer = setTimeout(
      () => {
        if (this.settled) return;
        if (Date.now() - state.lastFrameAt < idleTimeoutMs) return this.armIdleTimer();
        const diagnostic = `the ACP child sent nothing for ${idleTimeoutMs} ms during the prompt (idleTimeoutMs); the run was ended`;
        this.parts.logger.warn(`${this.parts.label}: child run failed: ${diagnostic}`);
        this.finish('error', diagnostic);
        void this.parts.conn.agent
          .notify(methods.agent.session.cancel, { sessionId: this.parts.sessionId })
          .catch(() => undefined);
      },
      Math.max(due, 1),
    );
    this.idleTimer.unref();
  }

  private prompt(): void {
    const { conn, sessionId, request } = this.parts;
    conn.agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: request.prompt }] })
      .then(
        (response) => {
          const stopReason = subagentStopReason(response.stopReason);
          this.finish(
            stopReason,
            // Every ending but completion says why (a token limit and a refusal too), in the child's own words.
            stopReason === 'completed'
              ? undefined
              : `the ACP child ended the turn with stopReason ${JSON.stringify(response.stopReason)}`,
          );
        },
        (error: unknown) => void this.failed(error),
      );
  }

  private async failed(error: unknown): Promise<void> {
    if (this.settled) return;
    if (this.parts.state.cancelRequested) return this.finish('aborted');
    const { channel, label, logger, config } = this.parts;
    let diagnostic: string;
    const overflow = channel.overflow();
    if (overflow) {
      diagnostic = `${overflow.message} during the prompt`;
    } else if (error instanceof RequestError) {
      diagnostic = `the ACP child answered session/prompt with ${describeRpcError(error)}`;
    } else {
      const exit = await settledWithin(channel.exited, EXIT_REPORT_WAIT_MS);
      diagnostic = exit
        ? `the ACP child ${describeExit(exit, config.command)} during the prompt`
        : `the connection to the ACP child closed during the prompt (${describeError(error)})`;
    }
    diagnostic += junkSuffix(channel.junk()) + stderrSuffix(channel.stderrTail());
    logger.warn(`${label}: child run failed: ${diagnostic}`);
    this.finish('error', diagnostic);
  }

  private finish(stopReason: SubagentStopReason, diagnostic?: string): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.idleTimer);
    const { invalidUpdates } = this.parts.state;
    if (invalidUpdates.length > 0) {
      const refused = describeInvalidUpdates(invalidUpdates, this.parts.config.command);
      this.parts.logger.warn(`${this.parts.label}: ${refused}`);
      diagnostic = diagnostic === undefined ? refused : `${diagnostic}; ${refused}`;
      // A dropped update that may have been the answer's text makes the output untrustworthy.
      if (stopReason === 'completed' && invalidUpdates.some(mayCarryOutput)) stopReason = 'error';
    }
    this.outcome.resolve({
      output: this.parts.state.output.text(),
      stopReason,
      ...(diagnostic !== undefined ? { diagnostic } : {}),
    });
  }
}

/** Only `agent_message_chunk` text becomes the run's output; an update with no readable tag might have been one. */
function mayCarryOutput(invalid: InvalidSessionUpdate): boolean {
  return invalid.kind === undefined || invalid.kind === 'agent_message_chunk';
}

function describeInvalidUpdates(invalidUpdates: readonly InvalidSessionUpdate[], command: string): string {
  const each = invalidUpdates.map(
    (invalid) => `${invalid.kind ?? 'untagged update'} (${invalid.problems.join('; ')}): ${invalid.params}`,
  );
  return (
    `the ACP child ${command} sent ${invalidUpdates.length} session/update notification(s) the ACP schema refuses, ` +
    `which the client could not use: ${each.join(' | ')}`
  );
}
