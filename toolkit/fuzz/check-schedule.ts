import { readFile } from 'node:fs/promises';
import type { Agent } from '../../harness/agents/agent.js';
import type { Runtime } from '../../harness/runtime/runtime.js';
import { checkInvariants } from '../../harness/session/invariants.js';
import { parseSessionLog } from '../../harness/session/jsonl.js';
import { HIJACKED, isListenerFailure, type LifecycleRecord } from './lifecycle-recorder.js';
import { describeThing, liveThings } from './liveness.js';
import { describeError } from './describe-error.js';
import type { RunTrace } from './run-trace.js';
import type { LifecycleViolation, ProviderFixture } from './types.js';

export interface ScheduleObservations {
  readonly runtime: Runtime;
  readonly parent: Agent;
  readonly fixture: ProviderFixture;
  readonly traces: readonly RunTrace[];
  readonly records: readonly LifecycleRecord[];
  readonly calls: readonly string[];
}

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/** The promises of DESIGN §3 checked once every action of the schedule has finished. */
export async function checkSchedule(observed: ScheduleObservations): Promise<LifecycleViolation[]> {
  for (const trace of observed.traces) {
    checkStart(trace, observed);
    checkEvents(trace, observed.records);
    checkResult(trace);
  }
  const violations = observed.traces.flatMap((trace) => trace.violations);
  const alive = liveThings(observed.runtime, observed.parent, observed.fixture);
  if (alive.length > 0) {
    violations.push({ promise: 'nothing-left-alive', message: `after every run was disposed, still alive: ${alive.map(describeThing).join(', ')}` });
  }
  violations.push(...(await childLogProblems(observed.runtime, observed.parent)));
  return violations;
}

function checkStart(trace: RunTrace, { calls }: ScheduleObservations): void {
  const { calledWith, start, plan } = trace;
  if (calledWith === null || start.status === 'pending') return;
  const providerCalled = calls.includes(trace.spawnedBy);
  if (start.status === 'rejected' && isListenerFailure(start.error)) {
    trace.violate('listener-failures-contained', `a listener failure escaped into subagents.start(): ${describeError(start.error)}`);
    return;
  }
  const refusedAs = (code: string, why: string): void => {
    if (start.status !== 'rejected' || codeOf(start.error) !== code) {
      const got = start.status === 'rejected' ? `rejected ${describeError(start.error)}` : 'fulfilled';
      trace.violate('refusal-before-provider', `start ${why} must reject ${code}, but it ${got}`);
    }
    if (providerCalled) trace.violate('refusal-before-provider', `start ${why} reached the provider's start()`);
  };
  if (calledWith.providerRemoved) return refusedAs('NO_PROVIDER', 'after the provider was removed');
  if (trace.refusal !== null) return refusedAs(trace.refusal.code, `that ${trace.refusal.description}`);
  if (calledWith.aborted && (start.status !== 'rejected' || codeOf(start.error) !== 'ABORTED')) {
    const got = start.status === 'rejected' ? `rejected ${describeError(start.error)}` : 'fulfilled with a run';
    trace.violate('aborted-start-rejects', `the request signal was aborted before start was called, so start must reject ABORTED; it ${got}`);
  }
  if (plan.outcome === 'fail-start' && !calledWith.aborted && start.status === 'fulfilled') {
    trace.violate('failed-start-rejects', 'the child was scripted to fail start-up, yet start fulfilled');
  }
}

function checkEvents(trace: RunTrace, records: readonly LifecycleRecord[]): void {
  const mine = records.map((record, index) => ({ record, index })).filter(({ record }) => record.info.lineage === trace.lineage);
  const starts = mine.filter(({ record }) => record.event === 'start');
  const ends = mine.filter(({ record }) => record.event === 'end');
  if (trace.start.status !== 'fulfilled') {
    if (mine.length > 0) trace.violate('no-events-for-rejected-start', `start did not fulfil, yet ${starts.length} subagent/start and ${ends.length} subagent/end were emitted`);
    return;
  }
  if (starts.length !== 1 || ends.length !== 1) {
    trace.violate('exactly-one-start-and-end', `expected one subagent/start and one subagent/end, got ${starts.length} and ${ends.length}`);
    return;
  }
  const start = starts[0];
  const end = ends[0];
  if (start === undefined || end === undefined) return;
  if (end.index < start.index) trace.violate('start-before-end', 'subagent/end was emitted before subagent/start');
  const result = trace.result;
  if (end.record.event !== 'end' || result.status === 'pending') return;
  const expected = result.status === 'fulfilled' ? result.value : { stopReason: 'error', output: '' };
  if (end.record.info.stopReason !== expected.stopReason || (end.record.info.lastAssistantMessage ?? '') !== expected.output) {
    trace.violate(
      'end-reports-the-result',
      `subagent/end said ${JSON.stringify({ stopReason: end.record.info.stopReason, lastAssistantMessage: end.record.info.lastAssistantMessage })} ` +
        `but the caller's result was ${JSON.stringify({ stopReason: expected.stopReason, output: expected.output })}: end must announce the run's own result`,
    );
  }
}

function checkResult(trace: RunTrace): void {
  const { result, plan } = trace;
  if (trace.start.status !== 'fulfilled') return;
  if (result.status === 'pending') return trace.violate('result-settles', 'the result never settled, even after dispose()');
  if (result.status === 'rejected') {
    return trace.violate('result-never-rejects', `the result rejected (${describeError(result.error)}) for a child-level outcome (${plan.outcome}); it may reject only for an infrastructure fault`);
  }
  const { stopReason, output } = result.value;
  if (stopReason === HIJACKED || output === HIJACKED) trace.violate('result-unaffected-by-listeners', 'a subagent/end listener changed the caller\'s result');
  if (trace.resultSnapshot !== JSON.stringify(result.value)) trace.violate('result-unaffected-by-listeners', 'the result object changed after the caller received it');
  if (trace.interrupted) {
    if (plan.outcome === 'hang' && stopReason !== 'aborted') trace.violate('cancel-settles-aborted', `a hanging child was cancelled but settled ${JSON.stringify(stopReason)}, not "aborted"`);
    return;
  }
  if (plan.outcome === 'complete' && stopReason !== 'completed') trace.violate('result-matches-child', `the child completed but the result says ${JSON.stringify(stopReason)}`);
  if (plan.outcome === 'child-error' && stopReason === 'completed') trace.violate('result-matches-child', 'the child failed but the result says "completed"');
  if (plan.outcome === 'hang') trace.violate('result-matches-child', `a child that runs until cancelled settled ${JSON.stringify(stopReason)} with nobody cancelling it`);
}

/** Every child session log the runtime persisted must pass the invariants as a finished log. */
async function childLogProblems(runtime: Runtime, parent: Agent): Promise<LifecycleViolation[]> {
  const problems: LifecycleViolation[] = [];
  for (const path of await runtime.sessions.list()) {
    if (path === parent.session.path) continue;
    const log = parseSessionLog(await readFile(path, 'utf8'), path);
    for (const violation of checkInvariants(log, { finished: true })) {
      problems.push({ promise: 'child-logs-valid', message: `${log.header.lineage} (${path}) seq ${String(violation.seq)} [${violation.rule}]: ${violation.message}` });
    }
  }
  return problems;
}
