import type { SubagentStopReason } from '../seam/types.js';

const MAPPED: Readonly<Record<string, SubagentStopReason>> = {
  end_turn: 'completed',
  max_tokens: 'max-tokens',
  refusal: 'refusal',
  cancelled: 'aborted',
};

/** The seam's stop reason for an ACP `stopReason`; anything else (`max_turn_requests`, future values) is an error. */
export function subagentStopReason(acpStopReason: string): SubagentStopReason {
  return Object.hasOwn(MAPPED, acpStopReason) ? (MAPPED[acpStopReason] as SubagentStopReason) : 'error';
}
