import fc from 'fast-check';
import type { StartCapability, SubagentCapabilities } from '../../providers/seam/types.js';

/** What the child of one run is scripted to do (the fixture turns it into its provider's terms). */
export type ChildOutcome = 'complete' | 'child-error' | 'hang' | 'fail-start';

/** A request the service must refuse before the provider is called. */
export type Refusal = { readonly kind: 'unsupported-capability'; readonly capability: StartCapability } | { readonly kind: 'invalid-max-depth' } | { readonly kind: 'depth-exceeded' };

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
  /** The provider's start-time capabilities, so refusals ask for one it lacks. Default: none advertised. */
  readonly capabilities?: SubagentCapabilities;
  /** Default 3. */
  readonly maxRuns?: number;
  /** Listener behaviours to draw from. Default: all. */
  readonly startListenerFaults?: readonly ListenerFault[];
  readonly endListenerFaults?: readonly ListenerFault[];
}

const ALL_OUTCOMES: readonly ChildOutcome[] = ['complete', 'child-error', 'hang', 'fail-start'];
const ALL_FAULTS: readonly ListenerFault[] = ['none', 'throw', 'reject', 'mutate'];
const CAPABILITIES: readonly StartCapability[] = ['outputSchema', 'maxDepth', 'toolFilter', 'persona'];

function refusalArbitrary(capabilities: SubagentCapabilities | undefined): fc.Arbitrary<Refusal> {
  const lacking = CAPABILITIES.filter((capability) => capabilities?.[capability] !== true);
  const refusals: fc.Arbitrary<Refusal>[] = [];
  if (lacking.length > 0) refusals.push(fc.constantFrom(...lacking).map((capability) => ({ kind: 'unsupported-capability' as const, capability })));
  // maxDepth is only checked (and only meaningful) on a provider that advertises it.
  if (capabilities?.maxDepth === true) refusals.push(fc.constantFrom<Refusal>({ kind: 'invalid-max-depth' }, { kind: 'depth-exceeded' }));
  return refusals.length === 0 ? fc.constant({ kind: 'unsupported-capability', capability: 'persona' }) : fc.oneof(...refusals);
}

/** The interleaving scenarios the lifecycle conformance suite draws; the scheduler then picks their order. */
export function lifecycleScheduleArbitrary(constraints: LifecycleScheduleConstraints = {}): fc.Arbitrary<LifecycleSchedule> {
  const outcomes = constraints.outcomes ?? ALL_OUTCOMES;
  const run: fc.Arbitrary<RunPlan> = fc.record({
    outcome: fc.constantFrom(...outcomes),
    abort: fc.constantFrom<RunPlan['abort']>('never', 'never', 'before-start', 'any-time', 'any-time'),
    cancel: fc.boolean(),
    dispose: fc.constantFrom<RunPlan['dispose']>('once', 'twice', 'concurrently'),
    refusal: fc.oneof({ arbitrary: fc.constant(null), weight: 7 }, { arbitrary: refusalArbitrary(constraints.capabilities), weight: 1 }),
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
