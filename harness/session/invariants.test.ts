import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors.js';
import { assertInvariants, checkInvariants, INVARIANT_RULES, type InvariantRule } from './invariants.js';
import { balancedPrefix } from './balanced-prefix.js';
import { buildLog } from './log-builder.js';
import type { SessionEvent, SessionLog } from './types.js';

const rulesOf = (log: SessionLog | { header: unknown; events: unknown[] }, finished = false): InvariantRule[] =>
  checkInvariants(log, { finished }).map((violation) => violation.rule);

/** A copy of `log` whose event at `index` has `patch` merged in (into `data` when `data` is given). */
function patchEvent(log: SessionLog, index: number, patch: Record<string, unknown>): SessionLog {
  const events = log.events.map((event, i) => {
    if (i !== index) return event;
    const data = patch['data'] === undefined ? event.data : { ...event.data, ...(patch['data'] as object) };
    return { ...event, ...patch, data } as SessionEvent;
  });
  return { header: log.header, events };
}

const oneToolTurn = () =>
  buildLog()
    .user('list the files')
    .turn((t) =>
      t
        .step((s) => s.assistant('checking').call('call_1', 'ls', { dir: '.' }).result('call_1', 'a.txt'))
        .step((s) => s.assistant('a.txt')),
    );

describe('checkInvariants options', () => {
  it('refuses an option it does not read: a misspelt finished passed a log whose turn never ended', () => {
    expect(() => checkInvariants(buildLog().build(), { finshed: true } as never)).toThrow(
      expect.objectContaining({
        code: 'INVALID_SESSION_OPTIONS',
        message: expect.stringContaining('checkInvariants: unknown option "finshed" (did you mean "finished"?)'),
      }),
    );
  });
});

describe('checkInvariants: valid logs pass', () => {
  it('a log with only a header has no violations, finished or not', () => {
    expect(checkInvariants(buildLog().build(), { finished: true })).toEqual([]);
  });

  it('a multi-turn, multi-step log with tool use passes as finished', () => {
    const log = oneToolTurn()
      .user('thanks')
      .turn((t) => t.step((s) => s.assistant('you are welcome')))
      .build();
    expect(checkInvariants(log, { finished: true })).toEqual([]);
  });

  it('parallel tool calls (call, call, result, result) pass', () => {
    const log = buildLog()
      .turn((t) =>
        t
          .step((s) =>
            s.call('a', 'read', { path: 'x' }).call('b', 'read', { path: 'y' }).result('b', 'y!').result('a', 'x!'),
          )
          .step((s) => s.assistant('done')),
      )
      .build();
    expect(checkInvariants(log, { finished: true })).toEqual([]);
  });

  it('user messages may appear outside turns, inside turns and inside steps', () => {
    const log = buildLog()
      .user('before')
      .turn((t) => t.user('steer').step((s) => s.user('joins the next call').assistant('ok')))
      .user('after')
      .build();
    expect(checkInvariants(log, { finished: true })).toEqual([]);
  });

  it('a seeded log whose seed is the balanced prefix of its parent passes', () => {
    const parent = oneToolTurn()
      .user('delegate')
      .turn((t) => t.step((s) => s.call('call_9', 'fork', { prompt: 'go' }), { open: true }), { open: true })
      .build();
    const child = buildLog({
      lineage: 'main/call_9',
      spawnedBy: 'call_9',
      origin: 'subagent',
      delegationDepth: 1,
      seed: balancedPrefix(parent.events),
    })
      .user('go')
      .turn((t) => t.step((s) => s.assistant('child answer')))
      .build();
    expect(child.header.seedLength).toBe(11);
    expect(checkInvariants(child, { finished: true })).toEqual([]);
  });

  it('a log with an open turn passes unless it is handed over as finished', () => {
    const log = buildLog()
      .turn((t) => t.step((s) => s.call('c', 'slow'), { open: true }), { open: true })
      .build();
    expect(checkInvariants(log)).toEqual([]);
    expect(rulesOf(log, true)).toEqual(['finished-closed']);
  });
});

describe('checkInvariants: each rule is caught on its own', () => {
  it('header: a malformed header is reported with seq null', () => {
    const log = oneToolTurn().build();
    const violations = checkInvariants({ header: { ...log.header, lineage: 'main//x' }, events: [...log.events] });
    expect(violations).toEqual([{ rule: 'header', seq: null, message: expect.stringMatching(/empty segment/) }]);
  });

  it('header: a spawnedBy that is not the last lineage segment is reported', () => {
    const log = buildLog({ lineage: 'main/call_1', spawnedBy: 'call_2' }).build();
    expect(rulesOf(log)).toEqual(['header']);
  });

  it('event-shape: an event whose data does not match its type is reported and not interpreted further', () => {
    const log = patchEvent(oneToolTurn().build(), 0, { data: { content: 'not blocks' } });
    expect(checkInvariants(log)).toEqual([
      { rule: 'event-shape', seq: 0, message: expect.stringMatching(/content must be an array/) },
    ]);
  });

  it('seq-contiguous: a gap in seq is reported at the event', () => {
    const log = patchEvent(oneToolTurn().build(), 2, { seq: 7 });
    expect(checkInvariants(log)).toEqual([
      { rule: 'seq-contiguous', seq: 2, message: expect.stringMatching(/has seq 7/) },
    ]);
  });

  it('time-monotonic: an event earlier than its predecessor is reported', () => {
    const log = oneToolTurn().build();
    const early = patchEvent(log, 3, { time: (log.events[2]?.time ?? 0) - 5 });
    expect(checkInvariants(early)).toEqual([
      { rule: 'time-monotonic', seq: 3, message: expect.stringMatching(/earlier/) },
    ]);
  });

  it('turn-numbering: a first turn numbered 2 is reported', () => {
    const log = buildLog()
      .event({ type: 'turn/start', data: { turn: 2 } })
      .event({ type: 'turn/end', data: { turn: 2, reason: 'completed' } })
      .build();
    expect(checkInvariants(log)).toEqual([
      { rule: 'turn-numbering', seq: 0, message: expect.stringMatching(/expected turn 1/) },
    ]);
  });

  it('turn-nesting: a turn started inside another is reported', () => {
    const log = buildLog()
      .event({ type: 'turn/start', data: { turn: 1 } })
      .event({ type: 'turn/start', data: { turn: 2 } })
      .event({ type: 'turn/end', data: { turn: 2, reason: 'completed' } })
      .build();
    expect(checkInvariants(log)).toEqual([
      { rule: 'turn-nesting', seq: 1, message: expect.stringMatching(/never nest/) },
    ]);
  });

  it('turn-nesting: a turn/end with no open turn is reported', () => {
    const log = oneToolTurn()
      .event({ type: 'turn/end', data: { turn: 1, reason: 'completed' } })
      .build();
    expect(rulesOf(log)).toEqual(['turn-nesting']);
  });

  it('step-numbering: a first step numbered 2 is reported', () => {
    const log = buildLog()
      .event({ type: 'turn/start', data: { turn: 1 } })
      .event({ type: 'step/start', data: { turn: 1, step: 2 } })
      .event({ type: 'step/end', data: { turn: 1, step: 2, finish: 'stop' } })
      .event({ type: 'turn/end', data: { turn: 1, reason: 'completed' } })
      .build();
    expect(checkInvariants(log)).toEqual([
      { rule: 'step-numbering', seq: 1, message: expect.stringMatching(/expected step 1/) },
    ]);
  });

  it('step-closed: a turn that ends with its step still open is reported', () => {
    const log = buildLog()
      .turn((t) => t.step((s) => s.assistant('hi'), { open: true }))
      .build();
    expect(checkInvariants(log)).toEqual([
      { rule: 'step-closed', seq: 3, message: expect.stringMatching(/step 1 .* is open/) },
    ]);
  });

  it('step-closed: a step started while the previous one is open is reported', () => {
    const log = buildLog()
      .event({ type: 'turn/start', data: { turn: 1 } })
      .event({ type: 'step/start', data: { turn: 1, step: 1 } })
      .event({ type: 'step/start', data: { turn: 1, step: 2 } })
      .event({ type: 'step/end', data: { turn: 1, step: 2, finish: 'stop' } })
      .event({ type: 'turn/end', data: { turn: 1, reason: 'completed' } })
      .build();
    expect(rulesOf(log)).toEqual(['step-closed']);
  });

  it('event-scope: an assistant message naming a step that is not open is reported', () => {
    const log = patchEvent(oneToolTurn().build(), 3, { data: { step: 2 } });
    expect(checkInvariants(log)).toEqual([
      { rule: 'event-scope', seq: 3, message: 'assistant/message names turn 1 step 2, but the open step is 1' },
    ]);
  });

  it('event-scope: a step/start outside any turn is reported', () => {
    const log = buildLog()
      .event({ type: 'step/start', data: { turn: 1, step: 1 } })
      .build();
    expect(rulesOf(log)).toEqual(['event-scope']);
  });

  it('tool-call-unique: a tool-call id reused in a later turn is reported', () => {
    const log = oneToolTurn()
      .turn((t) => t.step((s) => s.call('call_1', 'ls').result('call_1', 'again')).step((s) => s.assistant('same')))
      .build();
    expect(checkInvariants(log)).toEqual([
      { rule: 'tool-call-unique', seq: 13, message: expect.stringMatching(/reuses the id of the call at seq 4/) },
    ]);
  });

  it('tool-result-answers-call: a result for an id nobody called is reported', () => {
    const log = buildLog()
      .turn((t) => t.step((s) => s.result('ghost', 'boo')))
      .build();
    expect(checkInvariants(log)).toEqual([
      { rule: 'tool-result-answers-call', seq: 2, message: expect.stringMatching(/no earlier tool\/call/) },
    ]);
  });

  it('tool-result-answers-call: a second answer to the same call is reported', () => {
    const log = buildLog()
      .turn((t) => t.step((s) => s.call('a', 'ls').result('a', 'one').result('a', 'two')))
      .build();
    expect(checkInvariants(log)).toEqual([
      { rule: 'tool-result-answers-call', seq: 4, message: expect.stringMatching(/already answered at seq 3/) },
    ]);
  });

  it('tool-call-answered: a call left unanswered when its turn ends is reported at the call', () => {
    const log = buildLog()
      .turn((t) => t.step((s) => s.call('a', 'ls').call('b', 'cat').result('a', 'ok')))
      .build();
    expect(checkInvariants(log)).toEqual([
      { rule: 'tool-call-answered', seq: 3, message: expect.stringMatching(/"b" \(cat\)/) },
    ]);
  });

  it('seed-closed: a seedLength that ends inside a turn is reported', () => {
    const log = oneToolTurn().build();
    const seeded = { header: { ...log.header, seedLength: 4 }, events: log.events };
    expect(checkInvariants(seeded)).toEqual([
      { rule: 'seed-closed', seq: 1, message: expect.stringMatching(/ends inside turn 1/) },
    ]);
  });

  it('seed-closed: a seedLength longer than the log is reported', () => {
    const log = oneToolTurn().build();
    expect(rulesOf({ header: { ...log.header, seedLength: 99 }, events: [...log.events] })).toEqual(['seed-closed']);
  });

  it('finished-closed: a finished log with an open turn is reported at the turn/start', () => {
    const log = oneToolTurn()
      .user('more')
      .turn(() => undefined, { open: true })
      .build();
    expect(checkInvariants(log, { finished: true })).toEqual([
      { rule: 'finished-closed', seq: 12, message: expect.stringMatching(/turn 2/) },
    ]);
  });

  it('every rule id has a test above that violates it alone', () => {
    expect([...INVARIANT_RULES].sort()).toEqual(
      [
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
      ].sort(),
    );
  });
});

describe('checkInvariants: garbage input', () => {
  it('never throws, and reports garbage as violations', () => {
    expect(() => checkInvariants(null as unknown as SessionLog)).not.toThrow();
    expect(rulesOf(null as unknown as SessionLog)).toEqual(['header', 'event-shape']);
    const rules = rulesOf({
      header: { type: 'session' },
      events: [1, null, 'x', { seq: 3, time: 'now', type: 'nope', data: 5 }],
    });
    expect(new Set(rules)).toEqual(new Set(['header', 'event-shape', 'time-monotonic']));
  });
});

describe('assertInvariants', () => {
  it('throws INVALID_EVENT listing each violation with its rule and seq', () => {
    const log = buildLog({ lineage: 'main/c1', spawnedBy: 'c1' })
      .turn((t) => t.step((s) => s.result('ghost', 'boo')))
      .build();
    const thrown = (() => {
      try {
        assertInvariants(log);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(HarnessError);
    expect(thrown).toMatchObject({
      code: 'INVALID_EVENT',
      message: expect.stringMatching(/main\/c1 .*\n.*\[tool-result-answers-call\] seq 2/),
    });
  });

  it('returns quietly for a valid log', () => {
    expect(() => assertInvariants(oneToolTurn().build(), { finished: true })).not.toThrow();
  });
});
