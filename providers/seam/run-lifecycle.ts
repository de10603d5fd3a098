import type { EventBus } from '../../harness/runtime/event-bus.js';
import type { HarnessEvents } from '../../harness/runtime/events.js';
import type { SubagentRunEndInfo, SubagentRunInfo } from './events.js';
import type { SubagentResult, SubagentRun } from './types.js';

/**
 * Announces a run the caller now owns: `subagent/start` at once, `subagent/end` when its result
 * settles. The end is emitted from a promise reaction, so it follows start even for a result that
 * had already settled. Payloads are frozen copies: a listener cannot change what the caller gets.
 */
export function announceRun(events: EventBus<HarnessEvents>, run: SubagentRun, info: SubagentRunInfo): void {
  const start = Object.freeze({ ...info });
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
}
