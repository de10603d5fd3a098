import { RequestError, type StopReason } from '@agentclientprotocol/sdk';
import type { TurnOutcome } from '../agents/types.js';

/**
 * The ACP answer to a finished turn. A failed turn is a JSON-RPC error, not `end_turn`: an ACP
 * client must never read a failure as success, and the error carries the diagnostic.
 */
export function acpStopReason(outcome: TurnOutcome): StopReason {
  switch (outcome.reason) {
    case 'completed':
      return 'end_turn';
    case 'max-tokens':
      return 'max_tokens';
    case 'aborted':
      return 'cancelled';
    case 'refusal':
      return 'refusal';
    case 'max-steps':
      return 'max_turn_requests';
    case 'error': {
      const error = outcome.error ?? { code: 'UNKNOWN', message: 'the turn failed without a diagnostic' };
      throw RequestError.internalError(
        { code: error.code, turn: outcome.turn, output: outcome.output },
        `turn ${outcome.turn} failed: ${error.code}: ${error.message}`,
      );
    }
  }
}
