import { methods, RequestError, type ClientConnection } from '@agentclientprotocol/sdk';
import type { Logger } from '../../harness/runtime/logger.js';
import type { ResolvedStartRequest, SubagentResult, SubagentRun, SubagentStopReason } from '../seam/types.js';
import type { AcpChildProcess } from './acp-child-process.js';
import type { ResolvedAcpProviderConfig } from './acp-provider-config.js';
import { describeExit, stderrSuffix } from './describe-exit.js';
import { subagentStopReason } from './stop-reason.js';
import { reportTermination } from './report-termination.js';
import { terminateChild } from './terminate-child.js';

/** Shared with the client callbacks, which run before the run object exists. */
export interface RunState {
  output: string;
  cancelRequested: boolean;
}

export interface AcpRunParts {
  readonly request: ResolvedStartRequest;
  readonly child: AcpChildProcess & { stderrTail(): readonly string[] };
  readonly conn: ClientConnection;
  readonly sessionId: string;
  readonly state: RunState;
  readonly config: ResolvedAcpProviderConfig;
  readonly logger: Logger;
  readonly label: string;
}

/**
 * When the prompt fails because the connection died, the exit usually lands within a few
 * milliseconds; waiting this long lets the diagnostic name the exit code.
 */
const EXIT_REPORT_WAIT_MS = 500;

/** A ready ACP child: one `session/prompt`, settled by the child's answer, its death, or a local cancel. */
export class AcpRun implements SubagentRun {
  readonly id: string;
  readonly result: Promise<SubagentResult>;
  private settle!: (result: SubagentResult) => void;
  private settled = false;
  private disposal: Promise<void> | undefined;
  private cancelSent: Promise<void> | undefined;
  private readonly onAbort = (): void => this.cancel('the request signal was aborted');

  constructor(private readonly parts: AcpRunParts) {
    this.id = parts.request.runId;
    this.result = new Promise((resolve) => {
      this.settle = resolve;
    });
    parts.request.signal.addEventListener('abort', this.onAbort, { once: true });
    this.prompt();
  }

  /** Settles `aborted` at once with the output so far, then tells the child best-effort. */
  cancel(reason = 'cancelled by the parent'): void {
    if (this.settled) return;
    this.parts.state.cancelRequested = true;
    this.finish('aborted', `cancelled: ${reason}`);
    this.cancelSent = this.parts.conn.agent.notify(methods.agent.session.cancel, { sessionId: this.parts.sessionId }).catch(() => undefined);
  }

  dispose(): Promise<void> {
    return (this.disposal ??= this.teardown());
  }

  private async teardown(): Promise<void> {
    const { request, child, conn, config, logger, label } = this.parts;
    request.signal.removeEventListener('abort', this.onAbort);
    this.cancel('the run was disposed');
    // The cancel must reach the pipe before stdin closes, or the SDK's queued write fails after end.
    // Bounded: a child that stopped reading its stdin could hold the write forever.
    await Promise.race([this.cancelSent, delay(config.disposeEofGraceMs)]);
    const termination = await terminateChild(child, { eofGraceMs: config.disposeEofGraceMs, termGraceMs: config.disposeTermGraceMs });
    conn.close();
    reportTermination(logger, label, child.pid, termination, config);
  }

  private prompt(): void {
    const { conn, sessionId, request } = this.parts;
    conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: request.prompt }] }).then(
      (response) => {
        const stopReason = subagentStopReason(response.stopReason);
        this.finish(stopReason, stopReason === 'error' ? `the ACP child ended the turn with stopReason "${response.stopReason}"` : undefined);
      },
      (error: unknown) => void this.failed(error),
    );
  }

  private async failed(error: unknown): Promise<void> {
    if (this.settled) return;
    if (this.parts.state.cancelRequested) return this.finish('aborted');
    const { child, label, logger, config } = this.parts;
    let diagnostic: string;
    if (error instanceof RequestError) {
      diagnostic = `the ACP child answered session/prompt with error ${error.code}: ${error.message}`;
    } else {
      const exit = await Promise.race([child.exited, delay(EXIT_REPORT_WAIT_MS)]);
      diagnostic = exit
        ? `the ACP child ${describeExit(exit, config.command)} during the prompt`
        : `the connection to the ACP child closed during the prompt (${error instanceof Error ? error.message : String(error)})`;
    }
    diagnostic += stderrSuffix(child.stderrTail());
    logger.warn(`${label}: child run failed: ${diagnostic}`);
    this.finish('error', diagnostic);
  }

  private finish(stopReason: SubagentStopReason, diagnostic?: string): void {
    if (this.settled) return;
    this.settled = true;
    this.settle({ output: this.parts.state.output, stopReason, ...(diagnostic !== undefined ? { diagnostic } : {}) });
  }
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}
