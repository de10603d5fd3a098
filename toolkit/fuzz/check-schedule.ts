import { getEventListeners } from 'node:events';
import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import type { Agent } from '../../harness/agents/agent.js';
import type { Runtime } from '../../harness/runtime.js';
import { checkInvariants } from '../../harness/session/invariants.js';
import { parseSessionLog } from '../../harness/session/jsonl.js';
import type { SessionLog } from '../../harness/session/types.js';
import type { SubagentResult } from '../../providers/seam/types.js';
import { codeOf, describeError } from '../../harness/error-text.js';
import { HIJACKED, isListenerFailure, type LifecycleRecord } from './lifecycle-recorder.js';
import { describeThing, liveThings } from './liveness.js';
import type { RunTrace, Settlement } from './run-trace.js';
import { DENIED_TOOL, VALID_ANSWER } from './asks.js';
import type { PathCell } from './coverage.js';
import { callerJson, type ScheduleDriver } from './schedule-driver.js';
import type { LifecycleViolation, ProviderFixture } from './types.js';

export interface ScheduleObservations {
  readonly runtime: Runtime;
  /** The suite's own agents (the delegating parent, maybe a deep one): not the provider's to release. */
  readonly parents: readonly Agent[];
  readonly fixture: ProviderFixture;
  readonly driver: ScheduleDriver;
}

/** The lifecycle promises (docs/fuzzing.md, "The promises") checked once every act of the schedule has finished. */
export async function checkSchedule(observed: ScheduleObservations): Promise<LifecycleViolation[]> {
  const { driver } = observed;
  for (const trace of driver.traces) {
    checkStart(trace, driver.providerCalls, driver.observed.records, driver.capabilitiesWidened);
    checkOptionsCopied(trace, driver);
    checkEvents(trace, driver.observed.records);
    checkResult(trace);
    checkSteering(trace, observed.fixture, driver.heard.get(trace.lineage) ?? []);
    checkFollowUps(trace);
    checkErrors(trace);
    checkStructuredOutput(trace);
    checkDeniedTool(trace, driver);
    pathsOf(trace, driver.schedule.parent).forEach((path) => driver.cells.add(path));
  }
  checkSteeringTargets(driver);
  checkCallerUnchanged(observed.parents[0], driver);
  checkIds(driver);
  checkSignalListeners(driver);
  const violations = driver.traces.flatMap((trace) => trace.violations);
  violations.push(...(driver.background?.violations ?? []));
  violations.push(...laterListenerProblems(driver));
  const alive = liveThings(observed.runtime, observed.parents, observed.fixture);
  if (alive.length > 0) {
    violations.push({
      promise: 'nothing-left-alive',
      message: `after every run was disposed, still alive: ${alive.map(describeThing).join(', ')}`,
    });
  }
  const logs = await childLogs(observed.runtime, observed.parents);
  violations.push(...childLogProblems(logs, observed.parents));
  deniedCallPaths(driver, logs);
  violations.push(...parentLogProblems(observed.parents[0], driver));
  return violations;
}

function checkStart(
  trace: RunTrace,
  calls: readonly string[],
  records: readonly LifecycleRecord[],
  widened: boolean,
): void {
  const { calledWith, start, plan } = trace;
  if (calledWith === null || start.status === 'pending') return;
  const providerCalled = calls.includes(trace.spawnedBy);
  if (start.status === 'rejected' && isListenerFailure(start.error)) {
    trace.violate(
      'listener-failures-contained',
      `a listener failure escaped into subagents.start(): ${describeError(start.error)}`,
    );
    return;
  }
  // The provider fulfilled, so what rejected start came out of announcing the run: a listener's failure, or the bus containing it.
  if (
    start.status === 'rejected' &&
    (trace.providerFulfilled ||
      records.some((record) => record.event === 'start' && record.info.lineage === trace.lineage))
  ) {
    trace.violate(
      'listener-failures-contained',
      `the provider's start fulfilled, yet subagents.start() rejected while announcing the run: ${describeError(start.error)}`,
    );
    return;
  }
  // A capability the provider lacks, asked for after a listener widened its capabilities: the service read them live.
  const promise =
    trace.refusal?.code === 'UNSUPPORTED_CAPABILITY' && widened
      ? 'capabilities-fixed-at-registration'
      : 'refusal-before-provider';
  const after =
    promise === 'refusal-before-provider' ? '' : ' (a provider-added listener had widened its capabilities)';
  const refusedAs = (code: string, why: string): void => {
    if (start.status !== 'rejected' || codeOf(start.error) !== code) {
      const got = start.status === 'rejected' ? `rejected ${describeError(start.error)}` : 'fulfilled';
      trace.violate(promise, `start ${why} must reject ${code}, but it ${got}${after}`);
    }
    if (providerCalled) trace.violate(promise, `start ${why} reached the provider's start()${after}`);
  };
  if (calledWith.providerRemoved) return refusedAs('NO_PROVIDER', 'after the provider was removed');
  if (trace.refusal !== null) return refusedAs(trace.refusal.code, `that ${trace.refusal.description}`);
  if (calledWith.parentDisposed) return refusedAs('PARENT_DISPOSED', 'for a parent agent already disposed');
  if (calledWith.aborted && (start.status !== 'rejected' || codeOf(start.error) !== 'ABORTED')) {
    const got = start.status === 'rejected' ? `rejected ${describeError(start.error)}` : 'fulfilled with a run';
    trace.violate(
      'aborted-start-rejects',
      `the request signal was aborted before start was called, so start must reject ABORTED; it ${got}`,
    );
  }
  if (trace.parentGoneDuringStart && start.status === 'fulfilled') {
    trace.violate(
      'no-child-for-a-gone-parent',
      'the parent agent was disposed while start was pending, yet start fulfilled with a live child: reject PARENT_DISPOSED',
    );
  }
  if (
    trace.received !== null &&
    trace.received.request.depth !== undefined &&
    !Number.isSafeInteger(trace.received.request.depth)
  ) {
    trace.violate(
      'child-depth-safe',
      `the provider was handed child depth ${String(trace.received.request.depth)}, not a safe integer`,
    );
  }
  if (
    plan.outcome === 'fail-start' &&
    !calledWith.aborted &&
    !trace.abortedDuringStart &&
    start.status === 'fulfilled'
  ) {
    trace.violate('failed-start-rejects', 'the child was scripted to fail start-up, yet start fulfilled');
  }
  if (start.status === 'rejected' && !calledWith.aborted) {
    // Every reason start-up may end for, and the one code each must be reported with.
    const reasons = [
      ...(trace.abortedDuringStart ? [['ABORTED', 'the signal was aborted during start-up']] : []),
      ...(trace.parentGoneDuringStart ? [['PARENT_DISPOSED', 'the parent was disposed during start-up']] : []),
      ...(plan.outcome === 'fail-start' ? [['START_FAILED', 'the child was scripted to fail start-up']] : []),
    ];
    const code = codeOf(start.error);
    if (!reasons.some(([allowed]) => allowed === code)) {
      trace.violate(
        'start-rejection-code',
        reasons.length === 0
          ? `start rejected (${describeError(start.error)}) although nothing made start-up fail`
          : `start rejected with ${code ?? 'no code'} (${describeError(start.error)}); ${reasons.map(([allowed, why]) => `${why}: ${allowed}`).join(', or ')}`,
      );
    }
  }
  if (
    trace.abortedDuringStart &&
    start.status === 'fulfilled' &&
    trace.result.status === 'fulfilled' &&
    trace.result.value.stopReason !== 'aborted'
  ) {
    trace.violate(
      'abort-during-start-cancels',
      `the request signal was aborted during start-up, yet start fulfilled with a run that settled ${JSON.stringify(trace.result.value.stopReason)}: reject ABORTED, or hand over a run that settles "aborted"`,
    );
  }
}

/** The provider saw the start-time options as they were at `start`, in objects the caller does not hold. */
function checkOptionsCopied(trace: RunTrace, driver: ScheduleDriver): void {
  const received = trace.received;
  const caller = driver.callerOptions.get(trace);
  if (received === null || caller === undefined) return;
  const shared = received.request.agentOptions === caller.agentOptions;
  const { parent: _parent, signal: _signal, ...plain } = received.request;
  if (shared || JSON.stringify(plain) !== received.json) {
    trace.violate(
      'start-options-copied',
      `the start-time options the provider holds ${shared ? "are the caller's own objects" : 'changed after start'}: the caller's later edits reach the child`,
    );
  }
}

/** Each run the caller got (the first, then each from resume) announced once: start, then end, in that order. */
function checkEvents(trace: RunTrace, records: readonly LifecycleRecord[]): void {
  const mine = records.filter((record) => record.info.lineage === trace.lineage);
  const runs: { start: Settlement<unknown>; result: Settlement<SubagentResult> }[] = [];
  if (trace.start.status === 'fulfilled') runs.push(trace);
  runs.push(
    ...trace.followUps
      .filter((followUp) => followUp.start.status === 'fulfilled')
      .sort((a, b) => a.fulfilledAt - b.fulfilledAt),
  );
  if (runs.length === 0) {
    if (mine.length > 0)
      trace.violate(
        'no-events-for-rejected-start',
        `start did not fulfil, yet ${mine.length} subagent/start or subagent/end event(s) were emitted`,
      );
    return;
  }
  const starts = mine.filter((record) => record.event === 'start').length;
  const ends = mine.filter((record) => record.event === 'end').length;
  const settledRuns = runs.filter((run) => run.result.status !== 'pending').length;
  if (starts !== runs.length || ends !== settledRuns) {
    trace.violate(
      'one-start-and-end-per-run',
      `${runs.length} run(s) (${runs.length - 1} from resume) with ${settledRuns} settled result(s), yet ${starts} subagent/start and ${ends} subagent/end`,
    );
    return;
  }
  mine.forEach((record, index) => {
    const expected = index % 2 === 0 ? 'start' : 'end';
    if (record.event !== expected)
      trace.violate(
        'start-before-end',
        `event #${index + 1} of this child was subagent/${record.event}, expected subagent/${expected}: each run's start precedes its end`,
      );
  });
  mine.forEach((record, index) => {
    if (record.event !== 'end') return;
    const result = runs[(index - 1) / 2]?.result;
    if (result === undefined || result.status === 'pending') return;
    const expected = result.status === 'fulfilled' ? result.value : { stopReason: 'error', output: '' };
    if (
      record.info.stopReason !== expected.stopReason ||
      (record.info.lastAssistantMessage ?? '') !== expected.output
    ) {
      trace.violate(
        'end-reports-the-result',
        `subagent/end said ${JSON.stringify({ stopReason: record.info.stopReason, lastAssistantMessage: record.info.lastAssistantMessage })} ` +
          `but the caller's result was ${JSON.stringify({ stopReason: expected.stopReason, output: expected.output })}: end must announce the run's own result`,
      );
    }
  });
}

const RESULT_KEYS = new Set(['output', 'structured', 'stopReason', 'diagnostic']);

/** Why `value` is not a SubagentResult, or null. */
function shapeProblem(value: unknown, structuredAllowed: boolean): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `it is ${value === null ? 'null' : typeof value}, not an object`;
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !RESULT_KEYS.has(key));
  if (unknown.length > 0) return `it has unknown field(s) ${unknown.join(', ')}`;
  if (typeof record['output'] !== 'string') return `output is ${typeof record['output']}, not a string`;
  if (typeof record['stopReason'] !== 'string' || record['stopReason'] === '')
    return `stopReason is ${JSON.stringify(record['stopReason'])}, not a non-empty string`;
  if ('diagnostic' in record && typeof record['diagnostic'] !== 'string')
    return `diagnostic is ${typeof record['diagnostic']}, not a string`;
  if ('structured' in record && !structuredAllowed)
    return 'it carries structured output although no output schema was requested';
  return null;
}

function checkResult(trace: RunTrace): void {
  const { result, plan } = trace;
  if (trace.start.status !== 'fulfilled') return;
  if (result.status === 'pending')
    return trace.violate('result-settles', 'the result never settled, even after dispose()');
  if (result.status === 'rejected') {
    return trace.violate(
      'result-never-rejects',
      `the result rejected (${describeError(result.error)}) for a child-level outcome (${plan.outcome}); it may reject only for an infrastructure fault`,
    );
  }
  const shape = shapeProblem(result.value, trace.received?.request.outputSchema !== undefined);
  if (shape !== null) return trace.violate('result-known-shape', `the result is not a SubagentResult: ${shape}`);
  const { stopReason, output } = result.value;
  if (stopReason === HIJACKED || output === HIJACKED)
    trace.violate('result-unaffected-by-listeners', "a subagent/end listener changed the caller's result");
  if (trace.resultSnapshot !== JSON.stringify(result.value))
    trace.violate('result-stays-put', 'the result object changed after the caller received it');
  if (stopReason === 'aborted') {
    const lost = (trace.streamedBeforeInterrupt ?? []).filter((text) => !output.includes(text));
    if (lost.length > 0)
      trace.violate(
        'partial-output-kept',
        `the child had streamed ${JSON.stringify(lost.join(''))} before it was cancelled, but the aborted result's output is ${JSON.stringify(output)}`,
      );
  }
  if (trace.interrupted) {
    if (plan.outcome === 'hang' && stopReason !== 'aborted')
      trace.violate(
        'cancel-settles-aborted',
        `a hanging child was cancelled but settled ${JSON.stringify(stopReason)}, not "aborted"`,
      );
    return;
  }
  // A child whose structured answer did not validate does not complete (structured-output-validated).
  if (plan.outcome === 'complete' && trace.ask?.ask !== 'output-schema-invalid' && stopReason !== 'completed')
    trace.violate('result-matches-child', `the child completed but the result says ${JSON.stringify(stopReason)}`);
  if (plan.outcome === 'child-error' && stopReason === 'completed')
    trace.violate('result-matches-child', 'the child failed but the result says "completed"');
  if ((plan.outcome === 'max-tokens' || plan.outcome === 'refusal') && stopReason !== plan.outcome)
    trace.violate(
      'result-matches-child',
      `the child's turn ended ${plan.outcome} but the result says ${JSON.stringify(stopReason)}`,
    );
  if (plan.outcome === 'hang')
    trace.violate(
      'result-matches-child',
      `a child that runs until cancelled settled ${JSON.stringify(stopReason)} with nobody cancelling it`,
    );
}

/** A steering message `sendMessage` accepted reaches a model call, unless every turn that could carry it was cut short. */
function checkSteering(trace: RunTrace, fixture: ProviderFixture, heard: readonly string[]): void {
  if (!fixture.hearsSteering) return;
  const completed = (result: Settlement<SubagentResult>): boolean =>
    result.status === 'fulfilled' && result.value.stopReason === 'completed';
  for (const { text, phase } of trace.steered) {
    if (heard.includes(text)) continue;
    const carriers =
      phase === 'after-settle'
        ? trace.followUps.map((followUp) => followUp.result)
        : [trace.result, ...trace.followUps.map((followUp) => followUp.result)];
    const dropped =
      phase === 'after-settle' ? carriers.length === 0 || carriers.some(completed) : carriers.some(completed);
    if (dropped) {
      trace.violate(
        'steering-delivered-or-refused',
        `sendMessage(${JSON.stringify(text)}) (${phase}) was accepted, yet no model call carried it: deliver it, or refuse it with a typed error`,
      );
    }
  }
}

/** Two runs from resume() never hold the same child at once: the second was refused, or waited for the first to settle. */
function checkFollowUps(trace: RunTrace): void {
  const fulfilled = trace.followUps.filter((followUp) => followUp.start.status === 'fulfilled');
  for (const [i, a] of fulfilled.entries()) {
    for (const b of fulfilled.slice(i + 1)) {
      const [first, second] = a.fulfilledAt < b.fulfilledAt ? [a, b] : [b, a];
      if (first.start.status !== 'fulfilled' || second.start.status !== 'fulfilled') continue;
      if (first.start.value.id !== second.start.value.id) continue;
      if (first.settledAt < 0 || second.fulfilledAt < first.settledAt) {
        trace.violate(
          'resume-never-shared',
          `two concurrent resume() calls both handed out child ${first.start.value.id} while the first run was live: refuse the second (BUSY) or queue it`,
        );
      }
    }
  }
}

/** The listener registered last heard every event the runs owed: a failing listener before it did not stop the bus. */
function laterListenerProblems(driver: ScheduleDriver): LifecycleViolation[] {
  const runs = driver.traces.flatMap((trace) => [
    ...(trace.start.status === 'fulfilled' ? [trace] : []),
    ...trace.followUps.filter((f) => f.start.status === 'fulfilled'),
  ]);
  const starts = runs.length;
  const ends = runs.filter((run) => run.result.status !== 'pending').length;
  const heard = driver.observed.lastListener;
  if (heard.start >= starts && heard.end >= ends) return [];
  return [
    {
      promise: 'later-listeners-run',
      message: `the last listener heard ${heard.start} of ${starts} subagent/start and ${heard.end} of ${ends} subagent/end: a failing listener before it stopped the others`,
    },
  ];
}

/**
 * Every error a caller can get is typed (a string `code`, a message), and every result that did
 * not complete says why in one line.
 */
function checkErrors(trace: RunTrace): void {
  const untyped = (error: unknown): boolean =>
    typeof codeOf(error) !== 'string' || !(error instanceof Error) || error.message.trim() === '';
  if (trace.start.status === 'rejected' && untyped(trace.start.error))
    trace.violate(
      'errors-typed',
      `start rejected with ${describeError(trace.start.error)}: not a typed error with a code and a message`,
    );
  const results = [trace.result, ...trace.followUps.map((followUp) => followUp.result)];
  for (const result of results) {
    if (result.status !== 'fulfilled' || result.value.stopReason === 'completed') continue;
    const { diagnostic, stopReason } = result.value as { diagnostic?: unknown; stopReason: string };
    if (typeof diagnostic !== 'string' || diagnostic.trim() === '' || /[\r\n]/.test(diagnostic))
      trace.violate(
        'errors-typed',
        `a run that ended ${JSON.stringify(stopReason)} gave the diagnostic ${JSON.stringify(diagnostic)}: it must say why, in one line`,
      );
  }
}

/** The caller's request and the parent agent's options are as they were: start took copies. */
function checkCallerUnchanged(parent: Agent | undefined, driver: ScheduleDriver): void {
  for (const [trace, { request, json }] of driver.callerRequests) {
    if (callerJson(request) !== json || request.signal !== trace.controller.signal)
      trace.violate(
        'caller-request-unchanged',
        `the request the caller passed to subagents.start changed: ${json} became ${callerJson(request)}`,
      );
  }
  if (parent !== undefined && JSON.stringify(parent.options) !== driver.parentBefore.options) {
    const first = driver.traces[0];
    first?.violate(
      'caller-request-unchanged',
      `the parent agent's options changed while its children ran: ${driver.parentBefore.options} became ${JSON.stringify(parent.options)}`,
    );
  }
}

/** Run ids and child ids are unique across the schedule's runs; an in-process child id resolves to its live agent. */
function checkIds(driver: ScheduleDriver): void {
  const firstRuns = driver.traces.filter((trace) => trace.start.status === 'fulfilled');
  const seen = new Map<string, RunTrace>();
  for (const trace of firstRuns) {
    if (trace.start.status !== 'fulfilled') continue;
    const id = trace.start.value.id;
    const other = seen.get(id);
    if (other !== undefined)
      trace.violate(
        'ids-unique',
        `its run id ${JSON.stringify(id)} is also the id of ${other.name}: each child needs its own`,
      );
    seen.set(id, trace);
  }
  for (const { lineage, childId, resolves, inProcess } of driver.childIds) {
    if (inProcess && !resolves) {
      const trace = driver.traces.find((t) => t.lineage === lineage);
      trace?.violate(
        'ids-unique',
        `subagent/start named child ${JSON.stringify(childId)}, but runtime.agents.get() does not find the child agent ${lineage} under it`,
      );
    }
  }
}

/** Nothing the provider added to a caller's signal is still listening once the run is disposed (or start rejected). */
function checkSignalListeners(driver: ScheduleDriver): void {
  for (const trace of driver.traces) {
    if (trace.calledWith === null) continue;
    const left = getEventListeners(trace.controller.signal, 'abort').length;
    if (left > 0)
      trace.violate(
        'no-listener-left-on-signal',
        `${left} abort listener(s) are still on the caller's signal after the run ${trace.start.status === 'rejected' ? 'was refused' : 'was disposed'}: remove what you add when the run ends`,
      );
  }
}

/** The parent's log is what it was plus its own tool call and result (when the schedule made one): a child never writes into it. */
function parentLogProblems(parent: Agent | undefined, driver: ScheduleDriver): LifecycleViolation[] {
  if (parent === undefined) return [];
  const expected = [...(JSON.parse(driver.parentBefore.events) as unknown[]), ...driver.parentOwnEvents];
  if (JSON.stringify(parent.session.events) === JSON.stringify(expected)) return [];
  const before = expected.length;
  const added = parent.session.events.slice(before).map((event) => event.type);
  return [
    {
      promise: 'parent-log-untouched',
      message: `the parent's session log changed while its children ran (${before} event(s) expected, the parent's own ${driver.parentOwnEvents.length} included; now ${parent.session.events.length}; added: ${added.join(', ') || 'none, but an event was rewritten'})`,
    },
  ];
}

/** Every child session log the runtime persisted, read once the schedule is over. */
async function childLogs(runtime: Runtime, parents: readonly Agent[]): Promise<{ path: string; log: SessionLog }[]> {
  const logs: { path: string; log: SessionLog }[] = [];
  for (const path of await runtime.sessions.list()) {
    if (parents.some((parent) => parent.session.path === path)) continue;
    const text = await readIfPresent(path);
    // Listed, then gone: the provider discarded the session (a start-up rolled back), which is its right.
    if (text === null) continue;
    logs.push({ path, log: parseSessionLog(text, path) });
  }
  return logs;
}

/** Every child session log must pass the invariants as a finished log, under a header that matches its parent's. */
function childLogProblems(
  logs: readonly { path: string; log: SessionLog }[],
  parents: readonly Agent[],
): LifecycleViolation[] {
  const problems: LifecycleViolation[] = [];
  for (const { path, log } of logs) {
    const parent = parents.find((candidate) => log.header.lineage.startsWith(`${candidate.lineage}/`));
    if (
      parent !== undefined &&
      (log.header.parentSession !== parent.id || log.header.delegationDepth !== parent.depth + 1)
    ) {
      problems.push({
        promise: 'child-header-matches-parent',
        message: `${log.header.lineage} (${path}): its header says parentSession ${JSON.stringify(log.header.parentSession)}, delegationDepth ${String(log.header.delegationDepth)}; its parent is ${parent.id} at depth ${parent.depth}, so ${parent.id} and ${parent.depth + 1}`,
      });
    }
    for (const violation of checkInvariants(log, { finished: true })) {
      problems.push({
        promise: 'child-logs-valid',
        message: `${log.header.lineage} (${path}) seq ${String(violation.seq)} [${violation.rule}]: ${violation.message}`,
      });
    }
  }
  return problems;
}

/** The results a caller got from this run and the runs its `resume()` handed out. */
function resultsOf(trace: RunTrace): SubagentResult[] {
  return [trace.result, ...trace.followUps.map((followUp) => followUp.result)].flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
}

const STOP_PATHS: ReadonlySet<string> = new Set(['completed', 'aborted', 'error', 'max-tokens', 'refusal']);

/** The documented paths this run took (docs/fuzzing.md, "Paths"); steering and resume beside a sibling are marked as they happen. */
function pathsOf(trace: RunTrace, parent: ScheduleDriver['schedule']['parent']): PathCell[] {
  const paths: PathCell[] = [];
  for (const { stopReason } of resultsOf(trace))
    if (STOP_PATHS.has(stopReason)) paths.push(`path:stop-${stopReason}` as PathCell);
  const { start, result } = trace;
  if (result.status === 'fulfilled' && result.value.stopReason === 'error' && !trace.interrupted)
    paths.push('path:stop-error-uncancelled');
  if (start.status === 'fulfilled') paths.push(`path:parent-${parent}`);
  if (
    trace.refusal?.code === 'DEPTH_EXCEEDED' &&
    trace.refusal.deepParent !== true &&
    start.status === 'rejected' &&
    codeOf(start.error) === 'DEPTH_EXCEEDED'
  )
    paths.push('path:ask-max-depth-past');
  const settledOnItsOwn = start.status === 'fulfilled' && result.status === 'fulfilled' && !trace.interrupted;
  const ask = trace.ask?.ask;
  if (settledOnItsOwn && (ask === 'max-depth-below' || ask === 'max-depth-at' || ask === 'persona'))
    paths.push(`path:ask-${ask}`);
  if (
    settledOnItsOwn &&
    trace.plan.outcome === 'complete' &&
    (ask === 'output-schema-valid' || ask === 'output-schema-invalid')
  )
    paths.push(`path:ask-${ask}`);
  if (
    (trace.streamedBeforeInterrupt ?? []).length > 0 &&
    result.status === 'fulfilled' &&
    result.value.stopReason === 'aborted'
  )
    paths.push('path:cancel-after-streamed');
  return paths;
}

/**
 * A completed child that reported the valid answer through `structured_output`: the result is
 * `completed` with exactly that `structured`. One whose answer did not validate: not `completed`,
 * no `structured`.
 */
function checkStructuredOutput(trace: RunTrace): void {
  const ask = trace.ask?.ask;
  if (ask !== 'output-schema-valid' && ask !== 'output-schema-invalid') return;
  if (trace.plan.outcome !== 'complete' || trace.interrupted || trace.result.status !== 'fulfilled') return;
  const { stopReason, structured } = trace.result.value;
  if (ask === 'output-schema-valid' && (stopReason !== 'completed' || !isDeepStrictEqual(structured, VALID_ANSWER)))
    trace.violate(
      'structured-output-validated',
      `the child reported ${JSON.stringify(VALID_ANSWER)}, valid for the requested output schema, yet the result settled ${JSON.stringify(stopReason)} with structured ${JSON.stringify(structured)}`,
    );
  if (ask === 'output-schema-invalid' && (stopReason === 'completed' || structured !== undefined))
    trace.violate(
      'structured-output-validated',
      `the child's only structured answer did not validate against the requested output schema, yet the result settled ${JSON.stringify(stopReason)}${structured === undefined ? '' : ` with structured ${JSON.stringify(structured)}`}: it must not complete`,
    );
}

/** A tool the request's `toolFilter` denied never ran for the child, even when its model named it. */
function checkDeniedTool(trace: RunTrace, driver: ScheduleDriver): void {
  if (trace.received === null || !driver.capabilities.toolFilter || trace.refusal !== null) return;
  const runs = driver.deniedToolRanFor.filter((lineage) => lineage === trace.lineage).length;
  if (runs > 0)
    trace.violate(
      'denied-tool-never-runs',
      `the request's toolFilter denied ${DENIED_TOOL}, yet it ran ${runs} time(s) for the child`,
    );
}

/** A `tool-filter-denied-call` run reached its path when its child's log shows the model calling the denied tool. */
function deniedCallPaths(driver: ScheduleDriver, logs: readonly { log: SessionLog }[]): void {
  for (const trace of driver.traces) {
    if (trace.ask?.ask !== 'tool-filter-denied-call') continue;
    const log = logs.find((candidate) => candidate.log.header.lineage === trace.lineage)?.log;
    if (log?.events.some((event) => event.type === 'tool/call' && event.data.name === DENIED_TOOL))
      driver.cells.add('path:ask-tool-filter-denied-call');
  }
}

/** Steering sent to one run reaches that run's child, never a sibling's. */
function checkSteeringTargets(driver: ScheduleDriver): void {
  for (const [lineage, texts] of driver.heard) {
    const trace = driver.traces.find((candidate) => candidate.lineage === lineage);
    if (trace === undefined) continue;
    for (const text of texts) {
      const meant = /^fuzz steering for (\S+) #/.exec(text)?.[1];
      if (meant !== undefined && meant !== trace.spawnedBy)
        trace.violate(
          'steering-reaches-its-own-child',
          `its child's model call carried ${JSON.stringify(text)}, a steering message sent to the sibling run ${meant}`,
        );
    }
  }
}

/** The file's text, or null when it no longer exists. */
async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
