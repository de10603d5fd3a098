import { OWNED_PHASES, PHASES, type Phase } from '../arbitraries/lifecycle-schedule-arbitrary.js';

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
  | 'remove-provider';

/** Listener faults are placed, not timed: their "phase" is where they sit. */
export type ListenerCell =
  `listener-${'throw' | 'throw-exotic' | 'reject' | 'mutate'}@${'before-observers' | 'after-observers'}`;

/** `act@phase`: the act, and the phase its run was observed in when the act fired. */
export type CoverageCell = `${Act}@${Phase}` | ListenerCell;

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

/** The coverage report as a table: one line per act, one column per phase. */
export function formatCoverage(coverage: Readonly<Record<string, number>>): string {
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
