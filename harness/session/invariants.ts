import { HarnessError } from '../errors.js';
import { isRecord } from '../is-record.js';
import { optionKeys, unknownOption } from '../option-keys.js';
import { eventShapeProblem } from './event-shape.js';
import { headerProblems } from './header-shape.js';
import type { SessionEvent, SessionLog } from './types.js';

/** One id per session rule (listed in docs/architecture.md, "Sessions"), plus `event-shape` for a malformed event. */
export const INVARIANT_RULES = [
  'header',
  'event-shape',
  'seq-contiguous',
  'time-monotonic',
  'turn-numbering',
  'turn-nesting',
  'step-numbering',
  'step-closed',
  'event-scope',
  'tool-call-unique',
  'tool-result-answers-call',
  'tool-call-answered',
  'seed-closed',
  'finished-closed',
] as const;

export type InvariantRule = (typeof INVARIANT_RULES)[number];

export interface Violation {
  readonly rule: InvariantRule;
  /** The offending event's position (which is its expected seq); null for the header or the log as a whole. */
  readonly seq: number | null;
  readonly message: string;
}

export interface InvariantOptions {
  /** The log is handed over as finished: no turn may be open. */
  readonly finished?: boolean;
}

export type UncheckedLog = SessionLog | { readonly header: unknown; readonly events: readonly unknown[] };

interface OpenTurn {
  readonly turn: number;
  readonly seq: number;
  lastStep: number;
  openStep: { readonly step: number; readonly seq: number } | null;
}

interface PendingCall {
  readonly seq: number;
  readonly turn: number;
  readonly name: string;
}

/** Structural state of a log walked in order; `violate` records what breaks it. */
class LogWalker {
  private lastTurn = 0;
  open: OpenTurn | null = null;
  private readonly callSeqs = new Map<string, number>();
  private readonly pending = new Map<string, PendingCall>();
  private readonly answeredAt = new Map<string, number>();

  constructor(private readonly violate: (rule: InvariantRule, seq: number | null, message: string) => void) {}

  apply(event: SessionEvent, seq: number): void {
    switch (event.type) {
      case 'user/message':
        return;
      case 'turn/start':
        return this.startTurn(event.data.turn, seq);
      case 'turn/end':
        return this.endTurn(event.data.turn, seq);
      case 'step/start':
        return this.startStep(event.data.turn, event.data.step, seq);
      case 'step/end':
        if (this.inScope(event, seq) && this.open !== null) this.open.openStep = null;
        return;
      case 'assistant/message':
        this.inScope(event, seq);
        return;
      case 'tool/call':
        if (this.inScope(event, seq)) this.call(event.data.id, event.data.name, event.data.turn, seq);
        return;
      case 'tool/result':
        if (this.inScope(event, seq)) this.answer(event.data.id, event.data.turn, seq);
        return;
    }
  }

  private startTurn(turn: number, seq: number): void {
    if (this.open !== null) {
      this.violate(
        'turn-nesting',
        seq,
        `turn/start ${turn} while turn ${this.open.turn} (opened at seq ${this.open.seq}) is still open; turns never nest, end it with turn/end first`,
      );
      this.dropPendingOf(this.open.turn);
    }
    if (turn !== this.lastTurn + 1) {
      this.violate(
        'turn-numbering',
        seq,
        `turn/start ${turn}, expected turn ${this.lastTurn + 1}; turns are numbered 1, 2, ... consecutively`,
      );
    }
    this.lastTurn = turn;
    this.open = { turn, seq, lastStep: 0, openStep: null };
  }

  private endTurn(turn: number, seq: number): void {
    const open = this.open;
    if (open === null || open.turn !== turn) {
      const actual = open === null ? 'no turn is open' : `the open turn is ${open.turn}`;
      this.violate('turn-nesting', seq, `turn/end ${turn}, but ${actual}; a turn/end must close the open turn`);
      return;
    }
    if (open.openStep !== null) {
      this.violate(
        'step-closed',
        seq,
        `turn ${turn} ends while step ${open.openStep.step} (opened at seq ${open.openStep.seq}) is open; write step/end before turn/end`,
      );
    }
    for (const [id, call] of this.pending) {
      if (call.turn !== turn) continue;
      this.violate(
        'tool-call-answered',
        call.seq,
        `tool/call ${JSON.stringify(id)} (${call.name}) at seq ${call.seq} has no tool/result before turn ${turn} ends at seq ${seq}; every call is answered exactly once, an aborted one with an aborted result`,
      );
    }
    this.dropPendingOf(turn);
    this.open = null;
  }

  private startStep(turn: number, step: number, seq: number): void {
    const open = this.open;
    if (open === null || open.turn !== turn) {
      const actual = open === null ? 'no turn is open' : `the open turn is ${open.turn}`;
      this.violate('event-scope', seq, `step/start names turn ${turn}, but ${actual}`);
      return;
    }
    if (open.openStep !== null) {
      this.violate(
        'step-closed',
        seq,
        `step/start ${step} while step ${open.openStep.step} (opened at seq ${open.openStep.seq}) is still open; write step/end first`,
      );
    }
    if (step !== open.lastStep + 1) {
      this.violate(
        'step-numbering',
        seq,
        `step/start ${step} in turn ${turn}, expected step ${open.lastStep + 1}; steps are numbered 1, 2, ... inside each turn`,
      );
    }
    open.lastStep = step;
    open.openStep = { step, seq };
  }

  private inScope(
    event: { readonly type: string; readonly data: { readonly turn: number; readonly step: number } },
    seq: number,
  ): boolean {
    const { turn, step } = event.data;
    const open = this.open;
    let actual: string | null = null;
    if (open === null) actual = 'no turn is open';
    else if (open.turn !== turn) actual = `the open turn is ${open.turn}`;
    else if (open.openStep === null) actual = `no step of turn ${turn} is open`;
    else if (open.openStep.step !== step) actual = `the open step is ${open.openStep.step}`;
    if (actual === null) return true;
    this.violate('event-scope', seq, `${event.type} names turn ${turn} step ${step}, but ${actual}`);
    return false;
  }

  private call(id: string, name: string, turn: number, seq: number): void {
    const earlier = this.callSeqs.get(id);
    if (earlier !== undefined) {
      this.violate(
        'tool-call-unique',
        seq,
        `tool/call ${JSON.stringify(id)} reuses the id of the call at seq ${earlier}; tool-call ids are unique in a session`,
      );
    } else {
      this.callSeqs.set(id, seq);
    }
    // A duplicate still awaits its own answer, so its result is not reported a second time.
    if (!this.pending.has(id)) {
      this.answeredAt.delete(id);
      this.pending.set(id, { seq, turn, name });
    }
  }

  private answer(id: string, turn: number, seq: number): void {
    if (this.pending.get(id)?.turn === turn) {
      this.pending.delete(id);
      this.answeredAt.set(id, seq);
      return;
    }
    const answered = this.answeredAt.get(id);
    const called = this.callSeqs.get(id);
    const why =
      answered !== undefined
        ? `that call was already answered at seq ${answered}`
        : called !== undefined
          ? `the call at seq ${called} belongs to another turn`
          : 'no earlier tool/call has that id';
    this.violate('tool-result-answers-call', seq, `tool/result ${JSON.stringify(id)} in turn ${turn}: ${why}`);
  }

  private dropPendingOf(turn: number): void {
    for (const [id, call] of this.pending) if (call.turn === turn) this.pending.delete(id);
  }
}

/** A misspelt `finished` would pass a log whose turn never ended. */
const INVARIANT_OPTION_KEYS = optionKeys<InvariantOptions>({ finished: true });

/**
 * Every way `log` breaks the session rules (docs/architecture.md, "Sessions"). Pure; never throws,
 * whatever log it is given (an option it does not read is refused: INVALID_SESSION_OPTIONS).
 */
export function checkInvariants(log: UncheckedLog, options: InvariantOptions = {}): Violation[] {
  const unknown = unknownOption(options, INVARIANT_OPTION_KEYS);
  if (unknown !== undefined) throw new HarnessError('INVALID_SESSION_OPTIONS', `checkInvariants: ${unknown}`);
  const violations: Violation[] = [];
  const violate = (rule: InvariantRule, seq: number | null, message: string): void => {
    violations.push({ rule, seq, message });
  };
  const header: unknown = isRecord(log) ? log.header : undefined;
  for (const problem of headerProblems(header)) violate('header', null, problem);
  const events: unknown = isRecord(log) ? log.events : undefined;
  if (!Array.isArray(events)) {
    violate('event-shape', null, 'events must be an array');
    return violations;
  }
  const seedLength = declaredSeedLength(header);
  if (seedLength > events.length) {
    violate('seed-closed', null, `header.seedLength is ${seedLength} but the log has only ${events.length} events`);
  }
  const walker = new LogWalker(violate);
  let lastTime: number | null = null;
  for (let seq = 0; seq <= events.length; seq++) {
    if (seq === seedLength && walker.open !== null) {
      violate(
        'seed-closed',
        walker.open.seq,
        `the seed (first ${seedLength} events) ends inside turn ${walker.open.turn}, opened at seq ${walker.open.seq}; seed with a closed log such as balancedPrefix(parent)`,
      );
    }
    if (seq === events.length) break;
    const event: unknown = events[seq];
    if (!isRecord(event)) {
      violate('event-shape', seq, `event at index ${seq} is not an object`);
      continue;
    }
    if (event['seq'] !== seq) {
      violate(
        'seq-contiguous',
        seq,
        `event at index ${seq} has seq ${JSON.stringify(event['seq'])}; seq counts from 0 without gaps`,
      );
    }
    lastTime = checkTime(event['time'], lastTime, seq, violate);
    const shape = eventShapeProblem(event['type'], event['data']);
    if (shape !== null) violate('event-shape', seq, shape);
    else walker.apply(event as unknown as SessionEvent, seq);
  }
  if (options.finished === true && walker.open !== null) {
    violate(
      'finished-closed',
      walker.open.seq,
      `turn ${walker.open.turn} (opened at seq ${walker.open.seq}) is still open; a log handed over as finished has every turn ended`,
    );
  }
  return violations;
}

function declaredSeedLength(header: unknown): number {
  const seedLength = isRecord(header) ? header['seedLength'] : undefined;
  return Number.isSafeInteger(seedLength) && (seedLength as number) > 0 ? (seedLength as number) : 0;
}

function checkTime(
  time: unknown,
  lastTime: number | null,
  seq: number,
  violate: (rule: InvariantRule, seq: number, message: string) => void,
): number | null {
  if (typeof time !== 'number' || !Number.isFinite(time) || time < 0) {
    violate('time-monotonic', seq, `event time ${JSON.stringify(time)} is not epoch milliseconds`);
    return lastTime;
  }
  if (lastTime !== null && time < lastTime) {
    violate(
      'time-monotonic',
      seq,
      `event time ${time} is earlier than the previous event's ${lastTime}; time never decreases`,
    );
    return lastTime;
  }
  return time;
}

/** Throws `INVALID_EVENT` listing every violation; used where a log must be valid (tests, persisted logs). */
export function assertInvariants(log: UncheckedLog, options: InvariantOptions = {}): void {
  const violations = checkInvariants(log, options);
  if (violations.length === 0) return;
  const header: unknown = isRecord(log) ? log.header : undefined;
  const lineage = isRecord(header) && typeof header['lineage'] === 'string' ? header['lineage'] : '(unknown lineage)';
  const lines = violations.map((v) => `  - [${v.rule}] ${v.seq === null ? 'log' : `seq ${v.seq}`}: ${v.message}`);
  throw new HarnessError(
    'INVALID_EVENT',
    `Session log ${lineage} breaks ${violations.length} invariant(s):\n${lines.join('\n')}\nFix the code that wrote these events.`,
  );
}
