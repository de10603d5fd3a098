import type fc from 'fast-check';
import type { Runtime } from '../../harness/runtime.js';
import type { SubagentProvider } from '../../providers/seam/types.js';
import type { LifecyclePromise } from './promises.js';
import type {
  Ask,
  ChildOutcome,
  LifecycleSchedule,
  LifecycleScheduleConstraints,
} from '../arbitraries/lifecycle-schedule-arbitrary.js';

/** Something a run may own that must be gone once its `dispose()` resolves. */
export interface LiveThing {
  readonly kind: 'agent' | 'session' | 'process' | 'timer' | 'other';
  /** Agent or session id, pid, timer label... */
  readonly id: string;
  /** The child's lineage when known; things without one are checked by count. */
  readonly lineage?: string;
}

/** What the suite hands a factory for one schedule. */
export interface FixtureContext {
  /** Fresh runtime: temp sessions root, the `subagents` service loaded, nothing else registered. */
  readonly runtime: Runtime;
  /** Route the provider's own asynchrony (model calls, readiness) through it to let the suite reorder it. */
  readonly scheduler: fc.Scheduler;
  /** What the child of the run with this lineage is scripted to do (the suite names runs `r<i>-<outcome>`). */
  outcomeOf(lineage: string): ChildOutcome;
  /**
   * The request path the run with this lineage takes, when it needs the child's part: on
   * `tool-filter-denied-call` its model calls `DENIED_TOOL` (which the request denies) anyway; on
   * `output-schema-valid` / `-invalid` it reports `VALID_ANSWER` / `INVALID_ANSWER`. Null otherwise.
   */
  askOf(lineage: string): Ask | null;
  /** A scratch directory for this schedule (removed with the suite's temp root). */
  readonly scratch: string;
  /**
   * Tell the suite the child of `lineage` has streamed `text` to its run (call it once the run has
   * it). Marks the run `mid-stream`, and a cancel after it must keep `text` in the partial output.
   */
  streamed(lineage: string, text: string): void;
  /** Tell the suite a model call of the child of `lineage` carried the steering message `text` (see `hearsSteering`). */
  steered(lineage: string, text: string): void;
}

/** The provider under test for one schedule, and how to see what it keeps alive. */
export interface ProviderFixture {
  /** A fresh provider instance; the suite registers it through the runtime's SubagentService. */
  readonly provider: SubagentProvider;
  /**
   * What the provider keeps alive beyond agents and sessions (which the suite sees in the runtime):
   * child processes, timers, connections.
   */
  alive?(): readonly LiveThing[];
  /** Releases what the fixture itself made (not what runs made: that is the point of the test). */
  close?(): Promise<void>;
  /**
   * The fixture reports every steering message its child's model received (`context.steered`): a
   * message `sendMessage` accepted must then reach a model call of a run that completes.
   */
  readonly hearsSteering?: boolean;
}

/** Builds a fresh provider per schedule. Users write one for their own provider. */
export interface ProviderFactory {
  readonly name: string;
  /**
   * The module this factory is the default export of (a path or file URL), for the printed rerun
   * line: `nestcast fuzz --provider <module>`. Built-in providers are rerun by name instead.
   */
  readonly module?: string;
  /** Outcomes `create` can script. Default: all six. */
  readonly outcomes?: readonly ChildOutcome[];
  /**
   * Whether the fixture reports its children's output as it streams (`context.streamed`), so that
   * `partial-output-kept` can be checked. Default true: then a run in which no cancel came after a
   * reported chunk fails. Set false only for a provider that hands over no output before its
   * child ends; the coverage table then shows the path as not claimed.
   */
  readonly streams?: boolean;
  create(context: FixtureContext): ProviderFixture | Promise<ProviderFixture>;
  /** Replaces the suite's runtime (e.g. to bring your own event bus). Must load the `subagents` service. */
  createRuntime?(sessionsRoot: string): Promise<Runtime>;
}

export interface LifecycleCheckOptions {
  /** Number of schedules. Raised (never lowered) by FUZZ_RUNS. */
  readonly runs: number;
  /** Replay: the seed printed by a failure. */
  readonly seed?: number;
  /** Replay: the path printed by a failure (needs `seed`). */
  readonly path?: string;
  /** A schedule that has not finished after this long fails, listing what was still pending. Default 10000. */
  readonly timeoutMs?: number;
  /** Narrows what the schedules draw (outcomes and capabilities come from the factory and provider). */
  readonly schedule?: Omit<LifecycleScheduleConstraints, 'outcomes' | 'capabilities'>;
  /** Stop at the first failure without shrinking the schedule. Default: false, true when replaying a `path`. */
  readonly endOnFailure?: boolean;
  /** What `--provider` the printed rerun line names. Default: the factory's `module`, else its name. */
  readonly rerunAs?: string;
  /**
   * How long a cancelled or aborted run may take to settle on its own before the suite disposes it
   * (and reports that only dispose settled it). Default 2000 ms.
   */
  readonly settleWaitMs?: number;
}

/** One broken lifecycle promise (docs/fuzzing.md, "The promises"), found in one schedule. */
export interface LifecycleViolation {
  /**
   * Stable id of the promise (`LIFECYCLE_PROMISES`), e.g. `start-before-end`; `suite-error` when
   * the suite itself failed.
   */
  readonly promise: LifecyclePromise | 'suite-error' | 'paths-reached';
  readonly message: string;
}

export interface ConformanceFailure {
  /**
   * `provider`: a promise broke. `suite`: the suite itself blew up at `step`, a bug to report with
   * the seed and path. `coverage`: every schedule passed, but a path the provider claims was never
   * reached (`paths-reached`), so its checks never ran: run more schedules.
   */
  readonly kind: 'provider' | 'suite' | 'coverage';
  readonly seed: number;
  readonly path: string;
  readonly schedule: LifecycleSchedule;
  readonly violations: readonly LifecycleViolation[];
  /** The interleaving, one line per scheduler step, in the order they ran. */
  readonly steps: readonly string[];
  /** How to replay exactly this schedule. */
  readonly rerun: string;
  /** The last scheduler step released before the failure was seen. */
  readonly step: string;
}

export interface ConformanceReport {
  readonly provider: string;
  readonly ok: boolean;
  /** Schedules asked for (after FUZZ_RUNS). */
  readonly runs: number;
  /** Schedules run, shrinking included. */
  readonly schedules: number;
  /** The seed to pass again to reproduce the run (or the failing round, when a top-up round failed). */
  readonly seed: number;
  /** Extra rounds of `runs` schedules run to reach claimed paths the first round missed (at most 4). */
  readonly topUps: number;
  readonly elapsedMs: number;
  /** Per phase × act cell (`act@phase`) and per path (`path:...`), how many schedules reached it; see `expectedCells`. */
  readonly coverage: Readonly<Record<string, number>>;
  /** The paths the provider claims (`claimedPaths`): each must have been reached, or the run fails (`coverage`). */
  readonly claimedPaths: readonly string[];
  readonly failure?: ConformanceFailure;
}
