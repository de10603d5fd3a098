import fc from 'fast-check';

/** What the child of one run is scripted to do (the fixture turns it into its provider's terms). */
export type ChildOutcome = 'complete' | 'child-error' | 'hang' | 'fail-start';

/** A request the service must refuse before the provider is called. */
/**
 * A request the service must refuse before the provider is called. The suite makes it concrete for
 * the provider at hand: a capability it does not advertise, or (when it advertises `maxDepth`) a
 * malformed or exceeded depth cap.
 */
export type Refusal = 'unsupported-capability' | 'invalid-max-depth' | 'depth-exceeded';

/** What a listener on `subagent/start` or `subagent/end` does. `mutate` tries to change the payload. */
export type ListenerFault = 'none' | 'throw' | 'reject' | 'mutate';

export interface RunPlan {
  readonly outcome: ChildOutcome;
  /** The request signal: never aborted, aborted before start is called, or at a moment the scheduler picks (before or after ready). */
  readonly abort: 'never' | 'before-start' | 'any-time';
  /** `run.cancel()` once the run is ready, at a moment the scheduler picks. */
  readonly cancel: boolean;
  /** The owner's dispose calls: one, two one after the other, or two at once. */
  readonly dispose: 'once' | 'twice' | 'concurrently';
  /** When set, the request is one the service must refuse (and `outcome` is never reached). */
  readonly refusal: Refusal | null;
}

export interface LifecycleSchedule {
  /** Runs started concurrently on the same parent. */
  readonly runs: readonly RunPlan[];
  readonly startListener: ListenerFault;
  readonly endListener: ListenerFault;
  /** The parent goes away mid-schedule: every run's signal aborts and the parent agent is disposed. */
  readonly parentTeardown: boolean;
  /** The provider is unregistered mid-schedule; started runs live on, later starts get NO_PROVIDER. */
  readonly removeProvider: boolean;
}

export interface LifecycleScheduleConstraints {
  /** Outcomes the provider's fixture can script. Default: all. */
  readonly outcomes?: readonly ChildOutcome[];
  /** Default 3. */
  readonly maxRuns?: number;
  /** Listener behaviours to draw from. Default: all. */
  readonly startListenerFaults?: readonly ListenerFault[];
  readonly endListenerFaults?: readonly ListenerFault[];
}

const ALL_OUTCOMES: readonly ChildOutcome[] = ['complete', 'child-error', 'hang', 'fail-start'];
const ALL_FAULTS: readonly ListenerFault[] = ['none', 'throw', 'reject', 'mutate'];

/** The interleaving scenarios the lifecycle conformance suite draws; the scheduler then picks their order. */
export function lifecycleScheduleArbitrary(constraints: LifecycleScheduleConstraints = {}): fc.Arbitrary<LifecycleSchedule> {
  const outcomes = constraints.outcomes ?? ALL_OUTCOMES;
  const run: fc.Arbitrary<RunPlan> = fc.record({
    outcome: fc.constantFrom(...outcomes),
    abort: fc.constantFrom<RunPlan['abort']>('never', 'never', 'before-start', 'any-time', 'any-time'),
    cancel: fc.boolean(),
    dispose: fc.constantFrom<RunPlan['dispose']>('once', 'twice', 'concurrently'),
    refusal: fc.oneof({ arbitrary: fc.constant(null), weight: 7 }, { arbitrary: fc.constantFrom<Refusal>('unsupported-capability', 'invalid-max-depth', 'depth-exceeded'), weight: 1 }),
  });
  return fc.record({
    runs: fc.array(run, { minLength: 1, maxLength: constraints.maxRuns ?? 3 }),
    startListener: fc.constantFrom(...(constraints.startListenerFaults ?? ALL_FAULTS)),
    endListener: fc.constantFrom(...(constraints.endListenerFaults ?? ALL_FAULTS)),
    parentTeardown: fc.boolean(),
    removeProvider: fc.boolean(),
  });
}

/** `r<index>-<outcome>`: the run's `spawnedBy`, so its lineage tells a fixture what the child is scripted to do. */
export function runSpawnedBy(index: number, outcome: ChildOutcome): string {
  return `r${index}-${outcome}`;
}

/** The scripted outcome of the run with this lineage (or spawnedBy), or undefined for a lineage the suite did not make. */
export function outcomeOfLineage(lineage: string): ChildOutcome | undefined {
  const match = /(?:^|\/)r\d+-([a-z-]+)$/.exec(lineage);
  const outcome = match?.[1];
  return ALL_OUTCOMES.find((known) => known === outcome);
}
