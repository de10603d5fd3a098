import { describe, expect, it } from 'vitest';
import { balancedPrefix } from './balanced-prefix.js';
import { checkInvariants } from './invariants.js';
import { buildLog } from './log-builder.js';

describe('balancedPrefix', () => {
  it('drops the parent turn that is running the delegation call, and the prompt before it', () => {
    const parent = buildLog()
      .user('hello')
      .turn((t) => t.step((s) => s.assistant('hi')))
      .user('delegate the review')
      .turn(
        (t) => t.step((s) => s.assistant('delegating').call('call_fork', 'fork', { prompt: 'review' }), { open: true }),
        { open: true },
      )
      .build();
    const prefix = balancedPrefix(parent.events);
    expect(prefix).toEqual(parent.events.slice(0, 6));
    expect(prefix.at(-1)).toMatchObject({ type: 'turn/end', data: { turn: 1 } });
    expect(prefix.some((event) => event.type === 'tool/call')).toBe(false);
  });

  it('is empty when no turn has completed yet', () => {
    const first = buildLog()
      .user('go')
      .turn((t) => t.step((s) => s.call('c1', 'fork'), { open: true }), { open: true })
      .build();
    expect(balancedPrefix(first.events)).toEqual([]);
    expect(balancedPrefix([])).toEqual([]);
  });

  it('keeps the whole log when it ends with a turn/end, and is idempotent', () => {
    const log = buildLog()
      .user('a')
      .turn((t) => t.step((s) => s.call('x', 'ls').result('x', 'ok')).step())
      .build();
    expect(balancedPrefix(log.events)).toEqual(log.events);
    expect(balancedPrefix(balancedPrefix(log.events))).toEqual(log.events);
  });

  it('produces a seed that passes the invariants as a closed, finished log', () => {
    const parent = buildLog()
      .turn((t) => t.step((s) => s.call('a', 'ls').result('a', 'ok')).step())
      .user('trailing prompt')
      .build();
    const seed = balancedPrefix(parent.events);
    expect(seed).toHaveLength(parent.events.length - 1);
    const child = buildLog({ seed }).build();
    expect(checkInvariants(child, { finished: true })).toEqual([]);
  });

  it('returns a new array, so callers cannot change the source log through it', () => {
    const log = buildLog().turn().build();
    const prefix = balancedPrefix(log.events);
    prefix.pop();
    expect(log.events).toHaveLength(2);
  });
});
