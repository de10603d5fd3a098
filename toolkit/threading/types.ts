import type { ToolCallRef } from '../cassette/types.js';
import type { ReplyOf } from '../protocols/wire-protocol.js';

// The shape is the cassette's (meta.json stores it); the engine names it too.
export type { ToolCallRef };

/** What a model answered, as the next request of its session carries it back (read by its protocol). */
export type Reply = ReplyOf;

/** Where a call without an explicit lineage belongs. */
export type Placement =
  /** It extends the last request of `lineage` plus the reply that request got. */
  | { readonly kind: 'continue'; readonly lineage: string }
  /**
   * It starts a session: a child of `parent` (its newest user message holds a string argument of
   * that tool call), or a root. `lineage` is the name the threader gives it; `ambiguous` lists
   * every tool call that matched as well as `parent` did (parent first).
   */
  | {
      readonly kind: 'start';
      readonly lineage: string;
      readonly parent?: ToolCallRef;
      readonly ambiguous?: readonly ToolCallRef[];
    };

/** Two or more open tool calls matched one child equally well; the first (in call-id order) was taken. */
export interface AmbiguousChild {
  readonly code: 'AMBIGUOUS_CHILD';
  readonly lineage: string;
  readonly candidates: readonly ToolCallRef[];
  readonly message: string;
}
