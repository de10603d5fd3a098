import type { SubagentStopReason } from '../seam/types.js';

/** What one mock run does. Delays are in milliseconds; without `afterMs` a result is settled at once. */
export type MockBehaviour =
  /** Ready (after `readyAfterMs`), then completes with `output` (and `structured`) after `afterMs`. */
  | {
      readonly kind: 'succeed';
      readonly output?: string;
      readonly structured?: unknown;
      readonly readyAfterMs?: number;
      readonly afterMs?: number;
    }
  /** Ready, then ends with a non-completed stop reason (default `error`). */
  | {
      readonly kind: 'error';
      readonly stopReason?: SubagentStopReason;
      readonly output?: string;
      readonly diagnostic?: string;
      readonly readyAfterMs?: number;
      readonly afterMs?: number;
    }
  /** Start rejects with START_FAILED (after `afterMs`); nothing is left alive. */
  | { readonly kind: 'fail-start'; readonly message?: string; readonly afterMs?: number }
  /** Ready, then runs until cancelled; settles `aborted` with `output` as the partial output. */
  | { readonly kind: 'hang'; readonly output?: string; readonly readyAfterMs?: number }
  /** Like `hang`, but a cancel takes `forMs` to land. */
  | { readonly kind: 'ignore-cancel'; readonly forMs: number; readonly output?: string; readonly readyAfterMs?: number }
  /** Ready, then `result` rejects: an infrastructure fault. */
  | { readonly kind: 'crash'; readonly message?: string; readonly afterMs?: number }
  /** Negative tests only: runs until cancelled, and `dispose` resolves without releasing anything. */
  | { readonly kind: 'leak' };
