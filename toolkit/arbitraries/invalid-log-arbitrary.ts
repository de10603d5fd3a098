import fc from 'fast-check';
import { INVARIANT_RULES, type InvariantOptions, type InvariantRule } from '../../harness/session/invariants.js';
import type { SessionEvent, SessionLog } from '../../harness/session/types.js';
import { sessionLogArbitrary } from './session-log-arbitrary.js';

/** A log broken in exactly one way, tagged with the one rule `checkInvariants` must report. */
export interface InvalidLog {
  readonly rule: InvariantRule;
  /** What the mutation did, for the counterexample. */
  readonly mutation: string;
  readonly log: { readonly header: unknown; readonly events: readonly unknown[] };
  /** Options to check it with (`finished-closed` needs `{finished: true}`). */
  readonly options: InvariantOptions;
}

type Raw = Record<string, unknown>;
type Events = Raw[];

/** Breaks `log` in the way of one rule, choosing among candidate spots with `pick`; null when the log has no such spot. */
type Mutation = (
  log: SessionLog,
  pick: number,
) => {
  readonly mutation: string;
  readonly header?: Raw;
  readonly events?: Events;
  readonly options?: InvariantOptions;
} | null;

const copy = (events: readonly SessionEvent[]): Events =>
  events.map((event) => structuredClone(event) as unknown as Raw);
const choose = <T>(items: readonly T[], pick: number): T | undefined => items[pick % Math.max(1, items.length)];
const indexesOf = (events: readonly SessionEvent[], type: SessionEvent['type']): number[] =>
  events.flatMap((event, index) => (event.type === type ? [index] : []));

/** Inserts `event` at `at`, renumbering seqs and giving it its predecessor's time, so only its content is wrong. */
function insertAt(events: Events, at: number, event: { type: string; data: unknown }): Events {
  const time =
    (events[at - 1]?.['time'] as number | undefined) ??
    (events[at]?.['time'] as number | undefined) ??
    1_700_000_000_000;
  const out = [...events.slice(0, at), { seq: at, time, ...event }, ...events.slice(at)];
  return out.map((entry, seq) => ({ ...entry, seq }));
}

/** Positions where no turn is open: the start, and right after each turn/end. */
function betweenTurns(events: readonly SessionEvent[]): number[] {
  return [0, ...indexesOf(events, 'turn/end').map((index) => index + 1)];
}

/** Rewrites `turn` (or one step of it) to another number in every event that names it. */
function renumber(events: Events, match: (data: Raw) => boolean, field: 'turn' | 'step', to: number): Events {
  return events.map((event) => {
    const data = event['data'] as Raw;
    return match(data) ? { ...event, data: { ...data, [field]: to } } : event;
  });
}

/** Turns whose turn/end is present, with the index range of their events. */
function closedTurns(events: readonly SessionEvent[]): { turn: number; start: number; end: number }[] {
  return indexesOf(events, 'turn/end').flatMap((end) => {
    const event = events[end];
    if (event?.type !== 'turn/end') return [];
    const start = events.findIndex((e) => e.type === 'turn/start' && e.data.turn === event.data.turn);
    return [{ turn: event.data.turn, start, end }];
  });
}

const MUTATIONS: Record<InvariantRule, Mutation> = {
  header: (log) => ({ mutation: 'header.version set to 2', header: { ...log.header, version: 2 } }),
  'event-shape': (log, pick) => {
    const at = pick % (log.events.length + 1);
    return {
      mutation: `malformed user/message (content: 42) inserted at ${at}`,
      events: insertAt(copy(log.events), at, { type: 'user/message', data: { content: 42 } }),
    };
  },
  'seq-contiguous': (log, pick) => {
    const events = copy(log.events);
    const at = pick % events.length;
    const event = events[at];
    if (!event) return null;
    events[at] = { ...event, seq: at + 1 + (pick % 3) };
    return { mutation: `seq of event ${at} changed to ${String(events[at]?.['seq'])}`, events };
  },
  'time-monotonic': (log, pick) => {
    const events = copy(log.events);
    const at = pick % events.length;
    const event = events[at];
    if (!event) return null;
    const earlier = at > 0 ? (events[at - 1]?.['time'] as number) - 1 : -1;
    events[at] = { ...event, time: earlier };
    return { mutation: `time of event ${at} set to ${earlier}`, events };
  },
  'turn-numbering': (log) => {
    const starts = indexesOf(log.events, 'turn/start');
    const last = log.events[starts.at(-1) ?? -1];
    if (last?.type !== 'turn/start') return null;
    const turn = last.data.turn;
    return {
      mutation: `last turn ${turn} renumbered ${turn + 1}`,
      events: renumber(copy(log.events), (data) => data['turn'] === turn, 'turn', turn + 1),
    };
  },
  'turn-nesting': (log, pick) => {
    const at = choose(betweenTurns(log.events), pick) ?? 0;
    return {
      mutation: `stray turn/end inserted at ${at}`,
      events: insertAt(copy(log.events), at, { type: 'turn/end', data: { turn: 1, reason: 'completed' } }),
    };
  },
  'step-numbering': (log) => {
    const steps = indexesOf(log.events, 'step/start');
    const last = log.events[steps.at(-1) ?? -1];
    if (last?.type !== 'step/start') return null;
    const { turn, step } = last.data;
    const events = renumber(
      copy(log.events),
      (data) => data['turn'] === turn && data['step'] === step,
      'step',
      step + 1,
    );
    return { mutation: `last step ${turn}.${step} renumbered ${step + 1}`, events };
  },
  'step-closed': (log, pick) => {
    const candidates = closedTurns(log.events).flatMap(({ start, end }) => {
      const before = log.events[end - 1];
      return before?.type === 'step/end' && end > start ? [end - 1] : [];
    });
    const at = choose(candidates, pick);
    if (at === undefined) return null;
    return {
      mutation: `step/end at ${at} removed`,
      events: copy(log.events)
        .filter((_, index) => index !== at)
        .map((event, seq) => ({ ...event, seq })),
    };
  },
  'event-scope': (log, pick) => {
    const at = choose(betweenTurns(log.events), pick) ?? 0;
    const message = {
      type: 'assistant/message',
      data: { turn: 1, step: 1, content: [{ type: 'text', text: 'out of scope' }] },
    };
    return {
      mutation: `assistant/message outside any turn inserted at ${at}`,
      events: insertAt(copy(log.events), at, message),
    };
  },
  'tool-call-unique': (log, pick) => {
    const at = choose(indexesOf(log.events, 'tool/result'), pick);
    const result = at === undefined ? undefined : log.events[at];
    if (at === undefined || result?.type !== 'tool/result') return null;
    const { turn, step, id } = result.data;
    const withCall = insertAt(copy(log.events), at + 1, {
      type: 'tool/call',
      data: { turn, step, id, name: 'again', args: {} },
    });
    const events = insertAt(withCall, at + 2, {
      type: 'tool/result',
      data: { turn, step, id, output: 'again', isError: false },
    });
    return { mutation: `call ${JSON.stringify(id)} repeated (and answered) after its result at ${at}`, events };
  },
  'tool-result-answers-call': (log, pick) => {
    const at = choose(indexesOf(log.events, 'step/start'), pick);
    const start = at === undefined ? undefined : log.events[at];
    if (at === undefined || start?.type !== 'step/start') return null;
    const ghost = { type: 'tool/result', data: { ...start.data, id: 'ghost_call', output: 'boo', isError: false } };
    return {
      mutation: `tool/result for an unknown call inserted at ${at + 1}`,
      events: insertAt(copy(log.events), at + 1, ghost),
    };
  },
  'tool-call-answered': (log, pick) => {
    const closed = closedTurns(log.events);
    const candidates = indexesOf(log.events, 'tool/result').filter((index) =>
      closed.some(({ start, end }) => index > start && index < end),
    );
    const at = choose(candidates, pick);
    if (at === undefined) return null;
    return {
      mutation: `tool/result at ${at} removed`,
      events: copy(log.events)
        .filter((_, index) => index !== at)
        .map((event, seq) => ({ ...event, seq })),
    };
  },
  'seed-closed': (log, pick) => {
    const inside = log.events.flatMap((_, index) => (openTurnAt(log.events, index) ? [index] : []));
    const seedLength = choose(inside, pick);
    if (seedLength === undefined) return null;
    return { mutation: `header.seedLength set to ${seedLength}, inside a turn`, header: { ...log.header, seedLength } };
  },
  'finished-closed': (log) =>
    openTurnAt(log.events, log.events.length)
      ? { mutation: 'an open log checked as finished', options: { finished: true } }
      : null,
};

/** Whether a turn is open just before the event at `index` (that is, after the first `index` events). */
function openTurnAt(events: readonly SessionEvent[], index: number): boolean {
  let open = false;
  for (const event of events.slice(0, index)) {
    if (event.type === 'turn/start') open = true;
    if (event.type === 'turn/end') open = false;
  }
  return open;
}

/** Base logs each mutation can work on: unseeded (so an insertion cannot move the seed boundary), with turns. */
function baseLogs(rule: InvariantRule): fc.Arbitrary<SessionLog> {
  if (rule === 'finished-closed' || rule === 'seed-closed')
    return sessionLogArbitrary({ seeded: false, closed: false });
  return sessionLogArbitrary({ seeded: false, minTurns: 1 });
}

/** Logs that break exactly `rule` of INVARIANT_RULES. */
export function invalidLogArbitrary(rule: InvariantRule): fc.Arbitrary<InvalidLog> {
  const mutate = MUTATIONS[rule];
  return fc
    .tuple(baseLogs(rule), fc.nat())
    .map(([log, pick]): InvalidLog | null => {
      const broken = mutate(log, pick);
      if (broken === null) return null;
      return {
        rule,
        mutation: broken.mutation,
        log: { header: broken.header ?? log.header, events: broken.events ?? log.events },
        options: broken.options ?? {},
      };
    })
    .filter((value): value is InvalidLog => value !== null);
}

/** Every mutation class, one per rule id: `fc.oneof` over `invalidLogArbitrary(rule)`. */
export function anyInvalidLogArbitrary(): fc.Arbitrary<InvalidLog> {
  return fc.oneof(...INVARIANT_RULES.map((rule) => invalidLogArbitrary(rule)));
}
