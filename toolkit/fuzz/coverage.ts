import type { SubagentCapabilities } from '../../providers/seam/types.js';
import {
  ALL_OUTCOMES,
  OWNED_PHASES,
  PHASES,
  type Ask,
  type ChildOutcome,
  type ParentShape,
  type Phase,
} from '../arbitraries/lifecycle-schedule-arbitrary.js';
import { claimedAsks } from './asks.js';

/** Something the suite does to a run or its surroundings. */
export type Act =
  | 'abort'
  | 'cancel'
  | 'dispose-once'
  | 'dispose-twice'
  | 'dispose-concurrently'
  | 'steer'
  | 'resume'
  | 'resume-concurrently'
  | 'parent-teardown'
  | 'parent-dispose-only'
  | 'parent-tool-call'
  | 'remove-provider';

/** Listener faults are placed, not timed: their "phase" is where they sit. */
export type ListenerCell =
  `listener-${'throw' | 'throw-exotic' | 'reject' | 'mutate'}@${'before-observers' | 'after-observers'}`;

/**
 * A documented path a schedule took (docs/fuzzing.md, "Paths"): a request path (`ask:`), a stop
 * reason a result settled with (`stop:`, `stop:error-uncancelled` for a child error nobody
 * cancelled), steering or `resume()` while a sibling run was live, the parent's shape and its own
 * tool call, a cancel after a reported chunk (what `partial-output-kept` needs), and the status a
 * background delegation through the subagent tool ended its task with.
 */
export type PathCell =
  | `path:ask-${Ask | 'max-depth-past'}`
  | `path:stop-${'completed' | 'aborted' | 'error' | 'error-uncancelled' | 'max-tokens' | 'refusal'}`
  | 'path:steer-beside-a-live-sibling'
  | 'path:resume-beside-a-live-sibling'
  | `path:parent-${ParentShape}`
  | 'path:parent-own-tool-call'
  | 'path:cancel-after-streamed'
  | `path:background-${'completed' | 'killed' | 'failed'}`;

/** `act@phase`: the act, and the phase its run was observed in when the act fired; or a path taken. */
export type CoverageCell = `${Act}@${Phase}` | ListenerCell | PathCell;

const owned = (act: Act): CoverageCell[] => OWNED_PHASES.map((phase) => `${act}@${phase}` as const);
const anyPhase = (act: Act): CoverageCell[] => PHASES.map((phase) => `${act}@${phase}` as const);

/**
 * Every cell the schedules are meant to reach. `mid-stream` cells need a fixture that reports its
 * child's first chunk (`context.streamed`), `steer` and `resume` cells a run that offers them.
 */
export function expectedCells(options: { streams: boolean; steers: boolean; resumes: boolean }): CoverageCell[] {
  const keep = (cells: CoverageCell[]): CoverageCell[] =>
    options.streams ? cells : cells.filter((cell) => !cell.endsWith('@mid-stream'));
  const listeners = (['throw', 'throw-exotic', 'reject', 'mutate'] as const).flatMap((fault) =>
    (['before-observers', 'after-observers'] as const).map(
      (placement): ListenerCell => `listener-${fault}@${placement}`,
    ),
  );
  return [
    ...keep(anyPhase('abort')),
    ...keep(owned('cancel')),
    ...keep(owned('dispose-once')),
    ...keep(owned('dispose-twice')),
    ...keep(owned('dispose-concurrently')),
    ...(options.steers ? keep(owned('steer')) : []),
    ...(options.resumes
      ? ([
          'resume@after-ready',
          'resume@after-settle',
          'resume-concurrently@after-ready',
          'resume-concurrently@after-settle',
        ] as const)
      : []),
    ...keep(anyPhase('parent-teardown')),
    ...keep(anyPhase('parent-dispose-only')),
    ...keep(anyPhase('remove-provider')),
    ...listeners,
  ];
}

/** What a provider (and its fixture) claims: the paths the schedules must then reach, or the run fails. */
export interface Claims {
  /** The capabilities the provider registered with. */
  readonly capabilities: SubagentCapabilities;
  /** The outcomes its fixture scripts (default: all). */
  readonly outcomes?: readonly ChildOutcome[];
  /** Its fixture reports streamed chunks (`ProviderFactory.streams`, default true). */
  readonly streams: boolean;
  /** Some run it handed over offered `sendMessage` / `resume`. */
  readonly steers: boolean;
  readonly resumes: boolean;
  /** At most this many runs per schedule (siblings need two). */
  readonly maxRuns: number;
}

const STOP_OF: Record<ChildOutcome, PathCell[]> = {
  complete: ['path:stop-completed'],
  'child-error': ['path:stop-error', 'path:stop-error-uncancelled'],
  'max-tokens': ['path:stop-max-tokens'],
  refusal: ['path:stop-refusal'],
  hang: ['path:stop-aborted'],
  'fail-start': [],
};

/** Every documented path these claims oblige the schedules to reach. */
export function claimedPaths(claims: Claims): PathCell[] {
  const outcomes = claims.outcomes ?? ALL_OUTCOMES;
  const runs = outcomes.some((outcome) => outcome !== 'fail-start');
  const siblings = runs && claims.maxRuns >= 2;
  const asks = claimedAsks(claims.capabilities).map((ask): PathCell => `path:ask-${ask}`);
  return [
    ...(runs ? asks : []),
    ...(runs && claims.capabilities.maxDepth ? (['path:ask-max-depth-past'] as const) : []),
    ...outcomes.flatMap((outcome) => STOP_OF[outcome]),
    ...(siblings && claims.steers ? (['path:steer-beside-a-live-sibling'] as const) : []),
    ...(siblings && claims.resumes ? (['path:resume-beside-a-live-sibling'] as const) : []),
    ...(runs
      ? ([
          'path:parent-one-turn',
          'path:parent-several-turns',
          'path:parent-tool-error-last',
          'path:parent-own-tool-call',
        ] as const)
      : []),
    ...(runs && claims.streams ? (['path:cancel-after-streamed'] as const) : []),
    ...backgroundPaths(outcomes),
  ];
}

/**
 * Every provider can be delegated to in the background through the subagent tool: its task ends
 * `completed` for a child that completes, `killed` for one `task_kill` stops (a child that runs
 * until cancelled is always killed), `failed` for any other end.
 */
function backgroundPaths(outcomes: readonly ChildOutcome[]): PathCell[] {
  return [
    ...(outcomes.includes('complete') ? (['path:background-completed'] as const) : []),
    ...(outcomes.includes('hang') ? (['path:background-killed'] as const) : []),
    ...(outcomes.some((outcome) => ['child-error', 'max-tokens', 'refusal', 'fail-start'].includes(outcome))
      ? (['path:background-failed'] as const)
      : []),
  ];
}

/** How many schedules reached each cell (a schedule counts once per cell). */
export class CoverageCounter {
  private readonly counts = new Map<CoverageCell, number>();

  add(cells: ReadonlySet<CoverageCell>): void {
    for (const cell of cells) this.counts.set(cell, (this.counts.get(cell) ?? 0) + 1);
  }

  report(): Readonly<Record<string, number>> {
    return Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
  }
}

/**
 * The coverage report as a table: one line per act, one column per phase; then one line per path,
 * the ones the provider claims marked `*` (a claimed path at `-` fails the run).
 */
export function formatCoverage(coverage: Readonly<Record<string, number>>, claimed: readonly string[] = []): string {
  const paths = [...new Set([...claimed, ...Object.keys(coverage).filter((cell) => cell.startsWith('path:'))])].sort();
  const pathRows = paths.map(
    (path) =>
      `  ${claimed.includes(path) ? '*' : ' '} ${path.slice('path:'.length).padEnd(32)}${String(coverage[path] ?? '-').padStart(8)}`,
  );
  return [
    formatActs(Object.fromEntries(Object.entries(coverage).filter(([cell]) => !cell.startsWith('path:')))),
    'paths (* claimed by this provider: each must be reached):',
    ...pathRows,
  ].join('\n');
}

function formatActs(coverage: Readonly<Record<string, number>>): string {
  const acts = [...new Set(Object.keys(coverage).map((cell) => cell.split('@')[0] ?? ''))].sort();
  const columns = [...PHASES, 'before-observers', 'after-observers'].filter((column) =>
    Object.keys(coverage).some((cell) => cell.endsWith(`@${column}`)),
  );
  const width = Math.max(...acts.map((act) => act.length), 4);
  const header = `${'act'.padEnd(width)}  ${columns.map((column) => column.padStart(18)).join('')}`;
  const rows = acts.map(
    (act) =>
      `${act.padEnd(width)}  ${columns.map((column) => String(coverage[`${act}@${column}`] ?? '-').padStart(18)).join('')}`,
  );
  return [header, ...rows].join('\n');
}
