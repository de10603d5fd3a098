import type { EventBus } from '../../harness/runtime/event-bus.js';
import type { HarnessEvents } from '../../harness/runtime/events.js';
import { randomUUID } from 'node:crypto';
import type { SubagentRunEndInfo, SubagentRunInfo } from './events.js';
import type { SubagentResult, SubagentRun } from './types.js';

/** What every announcement of one child says, whichever of its runs (first or resumed) it is about. */
export type ChildInfo = Pick<SubagentRunInfo, 'provider' | 'parentId' | 'lineage'>;

/**
 * Announces a run the caller now owns: `subagent/start` at once, `subagent/end` when its result
 * settles. The end is emitted from a promise reaction, so it follows start even for a result that
 * had already settled. Payloads are frozen copies: a listener cannot change what the caller gets.
 * Returns the run the caller gets: the provider's, except that a run from its `resume` is announced
 * the same way (its own run id, start and end).
 */
export function announceRun(
  events: EventBus<HarnessEvents>,
  run: SubagentRun,
  child: ChildInfo,
  runId: string = randomUUID(),
): SubagentRun {
  const start: SubagentRunInfo = Object.freeze({
    runId,
    provider: child.provider,
    childId: run.id,
    parentId: child.parentId,
    lineage: child.lineage,
  });
  const end = (result: Pick<SubagentResult, 'stopReason'> & { output?: string }): void => {
    const payload: SubagentRunEndInfo = {
      ...start,
      stopReason: result.stopReason,
      ...(result.output ? { lastAssistantMessage: result.output } : {}),
    };
    events.emit('subagent/end', Object.freeze(payload));
  };
  events.emit('subagent/start', start);
  run.result.then(
    (result) => end(result),
    () => end({ stopReason: 'error' }),
  );
  if (run.resume === undefined) return run;
  // A forwarding object, not a prototype link: the provider's run keeps its own state (`this`).
  return {
    get id() {
      return run.id;
    },
    get result() {
      return run.result;
    },
    cancel: (reason?: string) => run.cancel(reason),
    dispose: () => run.dispose(),
    ...(run.sendMessage ? { sendMessage: (content: string) => run.sendMessage?.(content) } : {}),
    resume: async (content: string, signal: AbortSignal) => {
      const next = await (run.resume as NonNullable<SubagentRun['resume']>).call(run, content, signal);
      return announceRun(events, next, child);
    },
  };
}
