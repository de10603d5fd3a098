import type { Agent } from '../../harness/agents/agent.js';
import { finalAssistantText } from '../../harness/agents/final-output.js';
import { SubagentError } from '../seam/errors.js';
import type { SubagentResult, SubagentRun } from '../seam/types.js';
import { oneLine, resultFromTurn } from './stop-reason.js';
import type { StructuredOutputCapture } from './structured-output-capture.js';

/**
 * One turn of an in-process child, owned by whoever holds the run. The child agent (and its
 * session) belongs to the run until `dispose`, or until `resume` hands it to the follow-up run.
 */
export class InProcessRun implements SubagentRun {
  readonly result: Promise<SubagentResult>;
  private readonly controller = new AbortController();
  private disposal: Promise<void> | undefined;
  private handedOver = false;
  private resuming = false;

  constructor(
    private readonly agent: Agent,
    prompt: string,
    signal: AbortSignal,
    private readonly capture: StructuredOutputCapture | undefined,
  ) {
    const onAbort = (): void => this.cancel(describeReason(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    // The signal may have fired between the child's publication and this listener.
    if (signal.aborted) onAbort();
    this.result = this.drive(prompt).finally(() => signal.removeEventListener('abort', onAbort));
  }

  get id(): string {
    return this.agent.id;
  }

  cancel(reason = 'subagent run cancelled'): void {
    this.controller.abort(reason);
  }

  sendMessage(content: string): void {
    this.agent.sendMessage(content);
  }

  /** Waits for this run to finish, then hands the child to a new run that answers `content`. */
  async resume(content: string, signal: AbortSignal): Promise<SubagentRun> {
    // Claimed synchronously: a second resume, even one issued in the same tick, never gets the same child.
    if (this.resuming || this.handedOver) {
      throw new SubagentError(
        'BUSY',
        `subagent ${this.agent.lineage} (${this.id}) is already being resumed from this run; resume the run that resume() returned instead`,
      );
    }
    this.resuming = true;
    try {
      await this.result.catch(() => undefined);
      if (this.disposal || this.agent.disposed) {
        throw new SubagentError(
          'INVALID_REQUEST',
          `subagent ${this.agent.lineage} (${this.id}) is disposed; only a finished run that was not disposed can be resumed`,
        );
      }
      if (signal.aborted)
        throw new SubagentError('ABORTED', `resume of subagent ${this.agent.lineage} was cancelled before it started`, {
          cause: signal.reason,
        });
      this.handedOver = true;
      this.capture?.reset();
      return new InProcessRun(this.agent, content, signal, this.capture);
    } finally {
      this.resuming = false;
    }
  }

  dispose(): Promise<void> {
    return (this.disposal ??= (async () => {
      this.cancel('subagent run disposed');
      await this.result.catch(() => undefined);
      if (!this.handedOver) await this.agent.dispose();
    })());
  }

  private async drive(prompt: string): Promise<SubagentResult> {
    const boundary = this.agent.session.events.length;
    try {
      const outcome = await this.agent.run(prompt, { signal: this.controller.signal });
      return resultFromTurn(outcome, finalAssistantText(this.agent.session.events, boundary), {
        cancelled: this.controller.signal.aborted,
        capture: this.capture?.value,
        captureRequested: this.capture !== undefined,
      });
    } catch (error) {
      // Disposed before the turn could start: a cancelled run, not an infrastructure fault.
      if (this.controller.signal.aborted && this.agent.session.events.length === boundary) {
        return {
          output: '',
          stopReason: 'aborted',
          diagnostic: oneLine(describeReason(this.controller.signal.reason)),
        };
      }
      throw error;
    }
  }
}

function describeReason(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' ? reason : 'subagent run cancelled';
}
