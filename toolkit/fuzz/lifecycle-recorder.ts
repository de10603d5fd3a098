import type { EventBus } from '../../harness/runtime/event-bus.js';
import type { HarnessEvents } from '../../harness/runtime/events.js';
import type { SubagentRunEndInfo, SubagentRunInfo } from '../../providers/seam/events.js';
import type { ListenerFault, ListenerPlan } from '../arbitraries/lifecycle-schedule-arbitrary.js';

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

/** What the suite's observers saw: every start and end in order, and what the last listener of each event heard. */
export interface LifecycleObservations {
  readonly records: LifecycleRecord[];
  /** Calls of the listener registered last on each event: a bus that stops after a failing listener starves it. */
  readonly lastListener: { start: number; end: number };
}

/**
 * Records every subagent/start and subagent/end in order, with the schedule's faulty listeners
 * before or after the recorder as planned, and one more observer after everything.
 */
export function recordLifecycle(
  events: EventBus<HarnessEvents>,
  plans: { start: ListenerPlan; end: ListenerPlan },
): LifecycleObservations {
  const observed: LifecycleObservations = { records: [], lastListener: { start: 0, end: 0 } };
  const faultyStart = faultyListener('subagent/start', plans.start.fault);
  const faultyEnd = faultyListener('subagent/end', plans.end.fault);
  if (plans.start.placement === 'before-observers') events.on('subagent/start', faultyStart);
  if (plans.end.placement === 'before-observers') events.on('subagent/end', faultyEnd);
  events.on('subagent/start', (info) => void observed.records.push({ event: 'start', info: { ...info } }));
  events.on('subagent/end', (info) => void observed.records.push({ event: 'end', info: { ...info } }));
  if (plans.start.placement === 'after-observers') events.on('subagent/start', faultyStart);
  if (plans.end.placement === 'after-observers') events.on('subagent/end', faultyEnd);
  events.on('subagent/start', () => void observed.lastListener.start++);
  events.on('subagent/end', () => void observed.lastListener.end++);
  return observed;
}

/** Values that are hard to even describe: containment must survive them. */
function exoticThrown(event: string): object {
  if (event === 'subagent/start') {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  }
  const error = new InjectedListenerFailure(event, 'throw');
  Object.defineProperty(error, 'message', {
    get: () => {
      throw thrown(new Error('the message getter of an injected listener failure throws'));
    },
  });
  return error;
}

function faultyListener(event: string, fault: ListenerFault): (payload: object) => void | Promise<void> {
  switch (fault) {
    case 'none':
      return () => undefined;
    case 'throw':
      return () => {
        throw thrown(new InjectedListenerFailure(event, 'throw'));
      };
    case 'throw-exotic':
      return () => {
        throw thrown(exoticThrown(event));
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
