import type { SessionEvent } from './types.js';

/**
 * The events up to and including the last `turn/end`; empty when no turn completed.
 * A fork seeds its child with this, so the parent turn still running the delegation
 * (its tool/call unanswered) is never inherited.
 */
export function balancedPrefix(events: readonly SessionEvent[]): SessionEvent[] {
  const lastEnd = events.findLastIndex((event) => event.type === 'turn/end');
  return events.slice(0, lastEnd + 1);
}
