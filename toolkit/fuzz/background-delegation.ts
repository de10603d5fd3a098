import type { Agent } from '../../harness/agents/agent.js';
import { codeOf, describeError } from '../../harness/error-text.js';
import type { Runtime } from '../../harness/runtime.js';
import type { ToolExecution, ToolOutput } from '../../harness/tools/types.js';
import type { SubagentResult, SubagentRun } from '../../providers/seam/types.js';
import { backgroundCallId, type BackgroundPlan } from '../arbitraries/lifecycle-schedule-arbitrary.js';
import type { PathCell } from './coverage.js';
import { describeThing } from './liveness.js';
import type { LifecycleViolation, LiveThing } from './types.js';

/** The name the suite loads the subagent tool under (background mode enabled, the provider under test bound). */
export const BACKGROUND_TOOL = 'fuzz_subagent';

/** The task status the subagent tool documents for a run's result (docs/subagents.md, "Background calls"). */
function statusOf(result: SubagentResult): 'completed' | 'killed' | 'failed' {
  if (result.stopReason === 'completed') return 'completed';
  return result.stopReason === 'aborted' ? 'killed' : 'failed';
}

const textOf = (output: ToolOutput): string => (typeof output === 'string' ? output : output.output);

/**
 * The schedule's delegation through the subagent tool with `run_in_background: true`: what the
 * provider did with it, and what the task tools reported. Checked against docs/subagents.md's
 * background promises (`background-task-reports-its-run`).
 */
export class BackgroundDelegation {
  readonly callId: string;
  readonly lineage: string;
  readonly violations: LifecycleViolation[] = [];
  /** The provider's start for this child: not called (the service refused first), pending, or settled. */
  start: 'not-called' | 'pending' | { readonly run: SubagentRun } | { readonly error: unknown } = 'not-called';
  result:
    | { readonly status: 'pending' }
    | { readonly status: 'fulfilled'; readonly value: SubagentResult }
    | {
        readonly status: 'rejected';
        readonly error: unknown;
      } = { status: 'pending' };
  /** The task status the task tools reported at its end: the path this delegation took. */
  reached: 'completed' | 'killed' | 'failed' | null = null;
  /** The signal the tool started the child under (the task owns it), and the provider's start. */
  private signal: AbortSignal | undefined;
  private pendingStart: Promise<SubagentRun> | undefined;

  constructor(
    readonly plan: BackgroundPlan,
    readonly parent: Agent,
  ) {
    this.callId = backgroundCallId(plan.outcome);
    this.lineage = `${parent.lineage}/${this.callId}`;
  }

  /** Until its task reported its end, its child may own something the suite cannot attribute. */
  get mayOwnSomething(): boolean {
    return this.start !== 'not-called' && this.reached === null;
  }

  get path(): PathCell | null {
    return this.reached === null ? null : `path:background-${this.reached}`;
  }

  /** Watches the provider's start for this child (called from the suite's wrapper around the provider). */
  observe(pending: Promise<SubagentRun>, signal: AbortSignal): void {
    this.start = 'pending';
    this.signal = signal;
    this.pendingStart = pending;
    pending.then(
      (run) => {
        this.start = { run };
        run.result.then(
          (value) => void (this.result = { status: 'fulfilled', value }),
          (error: unknown) => void (this.result = { status: 'rejected', error }),
        );
      },
      (error: unknown) => void (this.start = { error }),
    );
  }

  /**
   * Calls the tool as the parent's model would, then ends the task as the plan says, through the
   * task tools. Returns without a path when the tool is (legitimately) gone or refuses a gone parent.
   */
  async drive(
    runtime: Runtime,
    providerRemoved: () => boolean,
    gate: (label: string) => Promise<unknown>,
    settleWaitMs: number,
  ): Promise<void> {
    const tool = runtime.tools.get(BACKGROUND_TOOL);
    if (tool === undefined) {
      if (!providerRemoved()) this.violate(`the "${BACKGROUND_TOOL}" tool is absent while its provider is registered`);
      return;
    }
    if (this.parent.disposed) return;
    const description = `background ${this.callId}`;
    const started = textOf(
      await tool.execute(
        { description, prompt: `fuzz task for ${this.callId}`, run_in_background: true } as never,
        this.execution(this.callId),
      ),
    );
    const id = /^started background subagent task (subagent-\d+)$/.exec(started)?.[1];
    if (id === undefined)
      return this.violate(
        `the tool answered ${JSON.stringify(started)}, not "started background subagent task subagent-<n>"`,
      );
    const task = runtime.tasks.get(id);
    if (task?.kind !== 'subagent' || task.label !== description || task.owner !== this.parent.id)
      this.violate(
        `task ${id} is ${JSON.stringify(task)} once the tool returned; it must be registered at once, kind "subagent", label ${JSON.stringify(description)}, owner ${this.parent.id}`,
      );
    const collect = this.plan.end === 'kill' ? 'task_kill' : 'task_output';
    await gate(`background ${id}: ${collect}${this.plan.end === 'kill' ? '' : ' {wait: true}'}`);
    const reported = Promise.resolve(
      (runtime.tools.get(collect) as NonNullable<ReturnType<Runtime['tools']['get']>>).execute(
        (this.plan.end === 'kill' ? { id } : { id, wait: true }) as never,
        this.execution(`${this.callId}-${collect}`),
      ),
    );
    const unstuck = this.unstickAfterAbort(reported, settleWaitMs);
    this.checkEnd(id, collect, textOf(await reported));
    await unstuck;
  }

  /**
   * Once the task's signal aborted (`task_kill`, the owner's teardown), the run must settle on its
   * own, as a foreground one must: if it has not within `settleWaitMs`, that is reported, and the
   * suite disposes the run itself so the task (and the schedule) can end.
   */
  private async unstickAfterAbort(reported: Promise<unknown>, settleWaitMs: number): Promise<void> {
    const signal = this.signal;
    const abort =
      signal === undefined
        ? undefined
        : new Promise<void>((resolve) => {
            if (signal.aborted) resolve();
            else signal.addEventListener('abort', () => resolve(), { once: true });
          });
    const over = reported.then(() => 'over' as const);
    if (abort === undefined || (await Promise.race([over, abort.then(() => 'aborted' as const)])) === 'over') return;
    const startPendingAtAbort = this.start === 'pending';
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'gave up'>((resolve) => (timer = setTimeout(() => resolve('gave up'), settleWaitMs)));
    const outcome = await Promise.race([over, gaveUp]);
    clearTimeout(timer);
    if (outcome === 'over') return;
    const run = await this.pendingStart?.catch(() => undefined);
    if (run === undefined || this.result.status !== 'pending') return;
    this.violations.push({
      promise: startPendingAtAbort ? 'abort-during-start-cancels' : 'cancel-and-signal-settle-result',
      message: `background delegation ${this.lineage}: its task's signal aborted${startPendingAtAbort ? ' during start-up' : ''}, and its run's result was still pending ${settleWaitMs} ms later; the suite disposed the run`,
    });
    await run.dispose().catch((error: unknown) =>
      this.violations.push({
        promise: 'dispose-resolves',
        message: `background delegation ${this.lineage}: dispose() rejected: ${describeError(error)}`,
      }),
    );
  }

  /** What the task tools reported must be the run's end, and the run must be over and gone by then. */
  private checkEnd(id: string, collect: string, reported: string): void {
    const status = /\n\[status: (completed|killed|failed)[,\]]/.exec(reported)?.[1] as BackgroundDelegation['reached'];
    if (status === undefined || status === null)
      return this.violate(
        `${collect} ${id} answered ${JSON.stringify(reported)}: no final "[status: completed|killed|failed...]" line`,
      );
    this.reached = status;
    const start = this.start;
    if (start === 'pending')
      return this.violate(
        `${collect} ${id} reported it ${status} while the provider's start for its child was still pending`,
      );
    if (start === 'not-called') return;
    if ('error' in start) {
      const expected = codeOf(start.error) === 'ABORTED' ? 'killed' : 'failed';
      if (status !== expected)
        this.violate(
          `${collect} ${id} reported it ${status}, but its child's start rejected ${describeError(start.error)}: that is ${expected}`,
        );
      return;
    }
    const result = this.result;
    if (result.status === 'pending')
      return this.violate(
        `${collect} ${id} reported it ${status} while its child's run result was still pending: a task ends only once its run has`,
      );
    if (result.status === 'rejected') {
      if (status !== 'failed')
        this.violate(`${collect} ${id} reported it ${status}, but its run result rejected: that is failed`);
      return;
    }
    const expected = statusOf(result.value);
    if (status !== expected)
      this.violate(
        `${collect} ${id} reported it ${status}, but its run ended ${result.value.stopReason}: that is ${expected}`,
      );
    // task_output shows the child's output; task_kill only says the task stopped, and how.
    else if (
      collect === 'task_output' &&
      status === 'completed' &&
      reported !== `${result.value.output || '(no output)'}\n[status: completed]`
    )
      this.violate(
        `${collect} ${id} answered ${JSON.stringify(reported)}, not the child's output ${JSON.stringify(result.value.output)}`,
      );
  }

  /** Nothing of its child may be alive once its task reported its end. */
  checkReleased(alive: readonly LiveThing[]): void {
    const own = alive.filter((thing) => thing.lineage === this.lineage);
    if (own.length > 0)
      this.violate(
        `its task reported it ${String(this.reached)} while still alive: ${own.map(describeThing).join(', ')}`,
      );
  }

  private execution(callId: string): ToolExecution {
    return { callId, signal: new AbortController().signal, agentId: this.parent.id, lineage: this.parent.lineage };
  }

  private violate(message: string): void {
    this.violations.push({
      promise: 'background-task-reports-its-run',
      message: `background delegation ${this.lineage}: ${message}`,
    });
  }
}
