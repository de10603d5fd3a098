import type { TurnOutcome } from '../../harness/agents/types.js';
import type { SubagentResult } from '../seam/types.js';

const DIAGNOSTIC_LIMIT = 1000;

/** A diagnostic is one safe line: the first line of the message, bounded. */
export function oneLine(text: string): string {
  const first = text.split('\n', 1)[0] ?? '';
  return first.length > DIAGNOSTIC_LIMIT ? `${first.slice(0, DIAGNOSTIC_LIMIT)} [diagnostic truncated]` : first;
}

/**
 * The run's result from the child's turn. Cancellation outranks every non-completed outcome; a
 * requested capture that never came turns a clean finish into `error`.
 */
export function resultFromTurn(
  outcome: TurnOutcome,
  output: string,
  context: {
    readonly cancelled: boolean;
    readonly capture?: { readonly value: unknown } | undefined;
    readonly captureRequested: boolean;
  },
): SubagentResult {
  const structured = context.capture ? { structured: context.capture.value } : {};
  const detail = outcome.error ? { diagnostic: oneLine(`${outcome.error.code}: ${outcome.error.message}`) } : {};
  if (context.cancelled && outcome.reason !== 'completed')
    return { output, ...structured, stopReason: 'aborted', ...detail };
  switch (outcome.reason) {
    case 'completed':
      if (context.captureRequested && !context.capture) {
        return {
          output,
          stopReason: 'error',
          diagnostic: 'the child finished without reporting its result through structured_output',
        };
      }
      return { output, ...structured, stopReason: 'completed' };
    case 'max-steps':
      return { output, ...structured, stopReason: 'error', ...detail };
    case 'aborted':
    case 'error':
    case 'max-tokens':
    case 'refusal':
      return { output, ...structured, stopReason: outcome.reason, diagnostic: FALLBACK[outcome.reason], ...detail };
  }
}

/** Why a turn ended, when the turn gave no error to say it (a model's token limit or content filter gives none). */
const FALLBACK = {
  aborted: 'the child run was cancelled',
  error: 'the child turn ended with an error',
  'max-tokens': "the child's model stopped at its token limit before finishing",
  refusal: "the child's model declined to answer (content filter)",
} as const;
