import type { ScenarioFailure, ScenarioFailureCode } from './scenario-failure.js';

/** A failure and the failures it caused, listed under it. */
export interface FailureGroup {
  readonly headline: ScenarioFailure;
  readonly consequences: readonly ScenarioFailure[];
}

/**
 * What a run that went another way than recorded fails with anyway: its transcripts and
 * expectations differ, and a record refuses to save. Shown once, under what made it go that way.
 */
const FOLLOW_ON: ReadonlySet<ScenarioFailureCode> = new Set(['TRANSCRIPT_MISMATCH', 'EXPECTATION_FAILED', 'NOT_SAVED']);

/**
 * The failures ordered by cause. A run's failures come cause first (the model source's, a
 * refused call or a child that never started, before the session checks; a turn's error leads
 * when no call was refused), so the first is the headline. Marked as its consequences and moved
 * under it: the follow-on failures, and the later failures of its session, its ancestors and its
 * descendants (a child's answer feeds its parent, a parent's prompt its child), unconsumed calls
 * included. The rest keep their order, each a headline of its own. When the first failure is
 * itself a follow-on (an expectation, with every call matching), only NOT_SAVED follows it: the
 * others are causes in their own right.
 */
export function groupByCause(failures: readonly ScenarioFailure[]): ScenarioFailure[] {
  const [headline] = failures;
  if (headline === undefined) return [];
  const causing = !FOLLOW_ON.has(headline.code) && headline.code !== 'UNCONSUMED_CALLS';
  const from = sessionsOf(headline);
  const causedByHeadline = (failure: ScenarioFailure): boolean => {
    if (failure === headline) return false;
    if (!causing) return failure.code === 'NOT_SAVED';
    if (FOLLOW_ON.has(failure.code)) return true;
    const those = sessionsOf(failure);
    return those.length > 0 && those.every((session) => from.some((cause) => related(cause, session)));
  };
  const consequences = failures.filter(causedByHeadline);
  const others = failures.filter((failure) => failure !== headline && !consequences.includes(failure));
  return [unmarked(headline), ...consequences.map(asConsequence), ...others.map(unmarked)];
}

/** The report's failures as headlines, each with the consequences that follow it. */
export function failureGroups(failures: readonly ScenarioFailure[]): FailureGroup[] {
  const groups: { headline: ScenarioFailure; consequences: ScenarioFailure[] }[] = [];
  for (const failure of failures) {
    const last = groups.at(-1);
    if (failure.consequence === true && last !== undefined) last.consequences.push(failure);
    else groups.push({ headline: failure, consequences: [] });
  }
  return groups;
}

/** The failure's first line, cut: how a consequence is listed under its headline. */
export function failureSummary(message: string): string {
  const line = message.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function sessionsOf(failure: ScenarioFailure): readonly string[] {
  return failure.failedCall !== undefined ? [failure.failedCall.lineage] : (failure.sessions ?? []);
}

/** One lineage is the other, or nested in it (`main/task-1`, a repeat `main/task-1#2`). */
function related(a: string, b: string): boolean {
  return a === b || nestedIn(a, b) || nestedIn(b, a);
}

function nestedIn(inner: string, outer: string): boolean {
  return inner.startsWith(`${outer}/`) || inner.startsWith(`${outer}#`);
}

function asConsequence(failure: ScenarioFailure): ScenarioFailure {
  return withCause({ ...failure, consequence: true }, failure);
}

function unmarked(failure: ScenarioFailure): ScenarioFailure {
  if (failure.consequence === undefined) return failure;
  const { consequence: _dropped, ...rest } = failure;
  return withCause(rest, failure);
}

/** A copy keeps the error it was made from, not enumerable as on the original (see ScenarioFailure.cause). */
function withCause(copy: ScenarioFailure, from: ScenarioFailure): ScenarioFailure {
  if (from.cause !== undefined) Object.defineProperty(copy, 'cause', { value: from.cause, enumerable: false });
  return copy;
}
