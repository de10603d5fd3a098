import { closestName } from '../../harness/closest-name.js';
import { optionKeys, unknownOption } from '../../harness/option-keys.js';
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

type Kind = MockBehaviour['kind'];
type Of<K extends Kind> = Extract<MockBehaviour, { kind: K }>;

/** The fields each kind reads: any other is a mistake that would quietly play something else. */
const BEHAVIOUR_KEYS: { readonly [K in Kind]: readonly string[] } = {
  succeed: optionKeys<Of<'succeed'>>({ kind: true, output: true, structured: true, readyAfterMs: true, afterMs: true }),
  error: optionKeys<Of<'error'>>({
    kind: true,
    stopReason: true,
    output: true,
    diagnostic: true,
    readyAfterMs: true,
    afterMs: true,
  }),
  'fail-start': optionKeys<Of<'fail-start'>>({ kind: true, message: true, afterMs: true }),
  hang: optionKeys<Of<'hang'>>({ kind: true, output: true, readyAfterMs: true }),
  'ignore-cancel': optionKeys<Of<'ignore-cancel'>>({ kind: true, forMs: true, output: true, readyAfterMs: true }),
  crash: optionKeys<Of<'crash'>>({ kind: true, message: true, afterMs: true }),
  leak: optionKeys<Of<'leak'>>({ kind: true }),
};
const KINDS = Object.keys(BEHAVIOUR_KEYS);
const DELAYS = ['readyAfterMs', 'afterMs', 'forMs'] as const;

/**
 * Why `behaviour` is not one the mock provider can play, or `undefined`. An unknown kind played
 * nothing (the run never settled), and an unknown field was read as unset (`readyAftrMs`: ready at once).
 */
export function mockBehaviourProblem(behaviour: unknown): string | undefined {
  if (typeof behaviour !== 'object' || behaviour === null || Array.isArray(behaviour))
    return `must be an object with a "kind" (${KINDS.join(', ')})`;
  const fields = behaviour as Record<string, unknown>;
  const kind = fields['kind'];
  if (typeof kind !== 'string' || !Object.hasOwn(BEHAVIOUR_KEYS, kind)) {
    const meant = typeof kind === 'string' ? closestName(kind, KINDS) : undefined;
    return (
      `unknown kind ${JSON.stringify(kind) ?? String(kind)}${meant === undefined ? '' : ` (did you mean "${meant}"?)`}; ` +
      `the kinds are ${KINDS.join(', ')}`
    );
  }
  const unknown = unknownOption(behaviour, BEHAVIOUR_KEYS[kind as Kind]);
  if (unknown !== undefined) return `(${kind}) ${unknown}`;
  if (kind === 'ignore-cancel' && fields['forMs'] === undefined) return '(ignore-cancel) needs "forMs"';
  for (const delay of DELAYS) {
    const value = fields[delay];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0))
      return `(${kind}) "${delay}" must be a finite number of milliseconds ≥ 0, got ${String(value)}`;
  }
  return undefined;
}
