import type { ToolDefinition, ToolRestriction } from '../tools/types.js';
import type { TurnEndReason } from '../session/types.js';

export interface AgentOptions {
  /** Name of the LLM adapter to call; default: the first registered. */
  readonly adapter?: string;
  /** Model id sent in the request; default: the adapter's. */
  readonly model?: string;
  readonly system?: string;
  /** Model calls allowed in one turn before it ends with `max-steps`. Default 16. */
  readonly maxSteps?: number;
  readonly maxTokens?: number;
  readonly temperature?: number;
  /** Which global tools this agent sees and may run. */
  readonly toolRestriction?: ToolRestriction;
  /** Tools of this agent alone (not registered globally, not filtered by the restriction). */
  readonly ownTools?: readonly ToolDefinition<never>[];
}

export interface TurnOutcome {
  readonly turn: number;
  readonly reason: TurnEndReason;
  /** The turn's final answer: the text of its last assistant message that had any (partial when not completed). */
  readonly output: string;
  readonly error?: { readonly code: string; readonly message: string };
}

export interface RunOptions {
  readonly signal?: AbortSignal;
}

export const DEFAULT_MAX_STEPS = 16;
