import fc from 'fast-check';
import { balancedPrefix } from '../../harness/session/balanced-prefix.js';
import { buildLog, type StepBuilder, type TurnBuilder } from '../../harness/session/log-builder.js';
import type { SessionEvent, SessionLog, StepFinish, TurnEndReason } from '../../harness/session/types.js';

export interface SessionLogConstraints {
  /** `true`: every turn ended; `false`: the last turn is still open (as a running or crashed turn); default either. */
  readonly closed?: boolean;
  /** `true`: inherits a closed seed (`seedLength` set); `false`: no seed; default either. */
  readonly seeded?: boolean;
  /** Completed or open turns after the seed, at least this many. Default 0 (1 when `closed` is false). */
  readonly minTurns?: number;
  /** Default 4. */
  readonly maxTurns?: number;
}

/** One step as drawn: what the model said and which tools it called, answered in `resultOrder`. */
interface StepPlan {
  readonly text: string | null;
  readonly reasoning: string | null;
  readonly calls: readonly {
    readonly name: string;
    readonly args: unknown;
    readonly output: string;
    readonly isError: boolean;
  }[];
  /** A permutation of call indexes: parallel calls are answered in any order. */
  readonly resultOrder: readonly number[];
  readonly finish: StepFinish | null;
  readonly steeredBy: string | null;
}

interface TurnPlan {
  readonly prompt: string | null;
  readonly steps: readonly StepPlan[];
  readonly reason: TurnEndReason;
}

/** What is left open in the last turn of an open log. */
interface OpenTail {
  readonly stepOpen: boolean;
  /** How many of the open step's calls are still unanswered. */
  readonly unanswered: number;
}

const words = fc.string({ unit: fc.constantFrom('a', 'b', 'é', ' ', '\n', '"', '😀', '{'), maxLength: 12 });
const toolNames = fc.constantFrom('ls', 'read_file', 'search', 'fork', 'spawn');
const argsArb = fc.oneof(
  fc.constant({}),
  fc.dictionary(fc.constantFrom('path', 'q', 'n'), fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { maxKeys: 2 }),
);
const reasons = fc.constantFrom<TurnEndReason>(
  'completed',
  'completed',
  'aborted',
  'error',
  'max-steps',
  'max-tokens',
  'refusal',
);
const finishes = fc.constantFrom<StepFinish>('stop', 'max-tokens', 'content-filter', 'error', 'aborted', 'other');

const callArb = fc.record({ name: toolNames, args: argsArb, output: words, isError: fc.boolean() });

const stepArb: fc.Arbitrary<StepPlan> = fc
  .record({
    text: fc.option(words, { nil: null }),
    reasoning: fc.option(words, { freq: 3, nil: null }),
    calls: fc.array(callArb, { maxLength: 3 }),
    orderKeys: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
    finish: fc.option(finishes, { freq: 4, nil: null }),
    steeredBy: fc.option(words, { freq: 6, nil: null }),
  })
  .map(({ orderKeys, calls, ...rest }) => ({
    ...rest,
    calls,
    resultOrder: calls.map((_, index) => index).sort((a, b) => (orderKeys[a] ?? 0) - (orderKeys[b] ?? 0) || a - b),
  }));

const turnArb: fc.Arbitrary<TurnPlan> = fc.record({
  prompt: fc.option(words, { freq: 5, nil: null }),
  steps: fc.array(stepArb, { maxLength: 3 }),
  reason: reasons,
});

/**
 * Valid session logs: user prompts, turns of steps, parallel tool calls answered in any order,
 * every stop reason; open or closed; seeded (with `seedLength`) or not. Every value passes
 * `checkInvariants` (with `{finished: true}` when closed).
 */
export function sessionLogArbitrary(constraints: SessionLogConstraints = {}): fc.Arbitrary<SessionLog> {
  const closed = constraints.closed === undefined ? fc.boolean() : fc.constant(constraints.closed);
  const seeded = constraints.seeded === undefined ? fc.boolean() : fc.constant(constraints.seeded);
  return fc.tuple(closed, seeded).chain(([isClosed, isSeeded]) => {
    const minTurns = Math.max(constraints.minTurns ?? 0, isClosed ? 0 : 1);
    const maxTurns = Math.max(minTurns, constraints.maxTurns ?? 4);
    return fc
      .record({
        seed: isSeeded ? fc.array(turnArb, { minLength: 1, maxLength: 2 }) : fc.constant([]),
        turns: fc.array(turnArb, { minLength: minTurns, maxLength: maxTurns }),
        openTail: fc.record({ stepOpen: fc.boolean(), unanswered: fc.nat({ max: 3 }) }),
        lineage: fc.constantFrom('main', 'main/call_1', 'main/c1/call_x'),
        trailingPrompt: fc.option(words, { freq: 3, nil: null }),
      })
      .map(({ seed, turns, openTail, lineage, trailingPrompt }) =>
        writeLog({
          seedTurns: seed,
          turns,
          openTail: isClosed ? null : openTail,
          lineage,
          trailingPrompt: isClosed ? trailingPrompt : null,
        }),
      );
  });
}

function writeLog(plan: {
  seedTurns: readonly TurnPlan[];
  turns: readonly TurnPlan[];
  openTail: OpenTail | null;
  lineage: string;
  trailingPrompt: string | null;
}): SessionLog {
  const seed = plan.seedTurns.length === 0 ? [] : closedEvents(plan.seedTurns);
  const spawnedBy = plan.lineage.split('/').at(-1);
  const child =
    plan.lineage === 'main'
      ? {}
      : {
          spawnedBy,
          origin: 'subagent' as const,
          delegationDepth: plan.lineage.split('/').length - 1,
          parentSession: 'parent-1',
        };
  const builder = buildLog({ lineage: plan.lineage, ...child, ...(seed.length > 0 ? { seed } : {}) });
  plan.turns.forEach((turn, index) => {
    const isLast = index === plan.turns.length - 1;
    const tail = isLast ? plan.openTail : null;
    if (turn.prompt !== null) builder.user(turn.prompt);
    builder.turn((t) => writeSteps(t, turn.steps, tail), { reason: turn.reason, open: tail !== null });
  });
  if (plan.trailingPrompt !== null) builder.user(plan.trailingPrompt);
  return builder.build();
}

function closedEvents(turns: readonly TurnPlan[]): SessionEvent[] {
  const log = writeLog({ seedTurns: [], turns, openTail: null, lineage: 'main', trailingPrompt: null });
  return balancedPrefix(log.events);
}

function writeSteps(turn: TurnBuilder, steps: readonly StepPlan[], tail: OpenTail | null): void {
  steps.forEach((step, index) => {
    const openHere = tail !== null && tail.stepOpen && index === steps.length - 1;
    const unanswered = openHere ? Math.min(tail.unanswered, step.calls.length) : 0;
    turn.step((s) => writeStep(s, step, unanswered), {
      ...(step.finish !== null ? { finish: step.finish } : {}),
      open: openHere,
    });
    if (step.steeredBy !== null && !openHere) turn.user(step.steeredBy);
  });
}

function writeStep(s: StepBuilder, step: StepPlan, unanswered: number): void {
  const ids = step.calls.map((_, index) => `call_${s.turn}_${s.step}_${index}`);
  const blocks = [
    ...(step.reasoning !== null ? [{ type: 'reasoning' as const, text: step.reasoning }] : []),
    ...(step.text !== null ? [{ type: 'text' as const, text: step.text }] : []),
    ...step.calls.map((call, index) => ({
      type: 'tool-call' as const,
      id: ids[index] ?? '',
      name: call.name,
      arguments: JSON.stringify(call.args),
    })),
  ];
  if (blocks.length > 0) s.assistant(blocks);
  step.calls.forEach((call, index) => s.call(ids[index] ?? '', call.name, call.args));
  const answered = step.resultOrder.slice(0, step.resultOrder.length - unanswered);
  for (const index of answered) {
    const call = step.calls[index];
    if (call) s.result(ids[index] ?? '', call.output, { isError: call.isError });
  }
}
