import type { EventBus } from '../../harness/runtime/event-bus.js';
import type { HarnessEvents } from '../../harness/runtime/events.js';
import type { SubagentRunEndInfo, SubagentRunInfo } from '../../providers/seam/events.js';
import type { ListenerFault } from '../arbitraries/lifecycle-schedule-arbitrary.js';

/** The error the suite's faulty listeners throw or reject with; seeing it anywhere else means it escaped. */
export class InjectedListenerFailure extends Error {
  constructor(event: string, how: 'throw' | 'reject') {
    super(`injected ${how} in a ${event} listener`);
    this.name = 'InjectedListenerFailure';
  }
}

const thrownByListeners = new WeakSet<object>();

/** Whether `error` was thrown or rejected by one of the suite's faulty listeners (a frozen payload's TypeError included). */
export function isListenerFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && thrownByListeners.has(error);
}

function thrown<E extends object>(error: E): E {
  thrownByListeners.add(error);
  return error;
}

/** What a `mutate` listener writes into a payload; seeing it in a caller's result means the payload was shared. */
export const HIJACKED = 'hijacked-by-listener';

export type LifecycleRecord =
  | { readonly event: 'start'; readonly info: SubagentRunInfo }
  | { readonly event: 'end'; readonly info: SubagentRunEndInfo };

/** Records every subagent/start and subagent/end in order, and installs the schedule's faulty listeners after the recorder. */
export function recordLifecycle(events: EventBus<HarnessEvents>, faults: { start: ListenerFault; end: ListenerFault }): LifecycleRecord[] {
  const records: LifecycleRecord[] = [];
  events.on('subagent/start', (info) => void records.push({ event: 'start', info: { ...info } }));
  events.on('subagent/end', (info) => void records.push({ event: 'end', info: { ...info } }));
  events.on('subagent/start', faultyListener('subagent/start', faults.start));
  events.on('subagent/end', faultyListener('subagent/end', faults.end));
  return records;
}

function faultyListener(event: string, fault: ListenerFault): (payload: object) => void | Promise<void> {
  switch (fault) {
    case 'none':
      return () => undefined;
    case 'throw':
      return () => {
        throw thrown(new InjectedListenerFailure(event, 'throw'));
      };
    case 'reject':
      return () => Promise.reject(thrown(new InjectedListenerFailure(event, 'reject')));
    case 'mutate':
      return (payload) => {
        // A frozen payload makes these assignments throw, which the bus must contain like any failure.
        const writable = payload as Record<string, unknown>;
        try {
          writable['stopReason'] = HIJACKED;
          writable['lastAssistantMessage'] = HIJACKED;
          writable['childId'] = HIJACKED;
        } catch (error) {
          throw thrown(error as object);
        }
      };
  }
}
