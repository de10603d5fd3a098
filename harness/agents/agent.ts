import { HarnessError } from '../errors.js';
import type { LlmService } from '../llm/llm-service.js';
import { optionKeys, unknownOption } from '../option-keys.js';
import type { Logger } from '../runtime/logger.js';
import type { Session } from '../session/store-types.js';
import type { ContentBlock } from '../session/types.js';
import type { ToolView } from '../tools/tool-view.js';
import { runTurn } from './turn.js';
import type { AgentOptions, RunOptions, TurnOutcome } from './types.js';

const RUN_OPTION_KEYS = optionKeys<RunOptions>({ signal: true });

export interface AgentDeps {
  readonly llm: LlmService;
  readonly tools: ToolView;
  readonly logger: Logger;
  /** Runs when the agent is disposed, after its turn has stopped (kills owned tasks, unregisters). */
  readonly onDispose: (agent: Agent) => Promise<void>;
}

/** An agent bound to one session. Runs one turn at a time; listed in the registry until disposed. */
export class Agent {
  private current: { promise: Promise<TurnOutcome>; abort: AbortController } | undefined;
  private readonly pending: ContentBlock[][] = [];
  /** Tool executions still running, including those an abort already answered: dispose waits for them. */
  private readonly inflight = new Set<Promise<unknown>>();
  private disposal: Promise<void> | undefined;
  /** Set as the running turn ends: a steering message now could reach no model call. */
  private steeringClosed = false;

  constructor(
    readonly session: Session,
    readonly options: AgentOptions,
    private readonly deps: AgentDeps,
  ) {}

  get id(): string {
    return this.session.id;
  }

  get lineage(): string {
    return this.session.header.lineage;
  }

  get depth(): number {
    return this.session.header.delegationDepth;
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  get disposed(): boolean {
    return this.disposal !== undefined;
  }

  get tools(): ToolView {
    return this.deps.tools;
  }

  /** Runs one turn. The signal aborts it; the turn then ends `aborted` with every open call answered. */
  run(prompt: string | readonly ContentBlock[], options: RunOptions = {}): Promise<TurnOutcome> {
    // A misspelt `signal` would start a turn nothing can abort.
    const unknown = unknownOption(options, RUN_OPTION_KEYS);
    if (unknown !== undefined)
      return Promise.reject(new HarnessError('INVALID_AGENT_OPTIONS', `agent ${this.lineage} run: ${unknown}`));
    if (this.disposal) {
      return Promise.reject(
        new HarnessError(
          'AGENT_DISPOSED',
          `agent ${this.lineage} (${this.id}) is disposed; create a new agent to run another turn`,
        ),
      );
    }
    if (this.current) {
      return Promise.reject(
        new HarnessError(
          'AGENT_BUSY',
          `agent ${this.lineage} is already running a turn; wait for it or abort it first`,
        ),
      );
    }
    const content = typeof prompt === 'string' ? [{ type: 'text' as const, text: prompt }] : prompt;
    this.steeringClosed = false;
    const abort = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, abort.signal]) : abort.signal;
    const promise = runTurn({
      session: this.session,
      options: this.options,
      llm: this.deps.llm,
      tools: this.deps.tools,
      agentId: this.id,
      prompt: content,
      signal,
      takeSteering: () => this.pending.splice(0),
      closeSteering: () => {
        this.steeringClosed = true;
        return this.pending.splice(0);
      },
      track: (execution) => {
        this.inflight.add(execution);
        // The turn awaits the execution and reports its failure; this bookkeeping must not raise it a second time, unhandled.
        const settled = () => void this.inflight.delete(execution);
        execution.then(settled, settled);
      },
    }).finally(() => {
      this.current = undefined;
    });
    this.current = { promise, abort };
    return promise;
  }

  /** Steers the running turn: the message joins the next model call and is recorded in the log. */
  sendMessage(content: string | readonly ContentBlock[]): void {
    if (!this.current || this.steeringClosed) {
      throw new HarnessError(
        'AGENT_BUSY',
        `agent ${this.lineage} is not running a turn (or its turn has just ended); use run() to start one`,
      );
    }
    this.pending.push(typeof content === 'string' ? [{ type: 'text', text: content }] : [...content]);
  }

  /** Aborts the running turn (if any) without disposing. */
  abort(reason?: unknown): void {
    this.current?.abort.abort(reason);
  }

  /** Settles when the running turn (if any) has ended and every tool it started has returned. Never rejects. */
  async whenIdle(): Promise<void> {
    await this.current?.promise.catch(() => undefined);
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /** Aborts any turn, waits for it, kills owned tasks, closes the session, leaves the registry. Idempotent. */
  dispose(): Promise<void> {
    return (this.disposal ??= (async () => {
      // Only a running turn has anything to abort (and an error to read); building one costs a stack trace.
      if (this.current !== undefined) this.abort(new HarnessError('AGENT_DISPOSED', `agent ${this.lineage} disposed`));
      await this.whenIdle();
      await this.deps.onDispose(this);
    })());
  }
}
