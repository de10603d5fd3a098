import { describe, expect, it } from 'vitest';
import { checkInvariants } from './invariants.js';
import { buildLog } from './log-builder.js';

describe('buildLog', () => {
  it('numbers seq, time, turns and steps, and closes what it opens', () => {
    const log = buildLog({ startTime: 100 })
      .turn((t) =>
        t
          .step((s) => s.call('a', 'ls'))
          .step((s) => s.assistant('done'), { usage: { inputTokens: 1, outputTokens: 2 } }),
      )
      .turn(undefined, { reason: 'aborted' })
      .build();
    expect(log.events.map((event) => [event.seq, event.time, event.type])).toEqual([
      [0, 100, 'turn/start'],
      [1, 101, 'step/start'],
      [2, 102, 'tool/call'],
      [3, 103, 'step/end'],
      [4, 104, 'step/start'],
      [5, 105, 'assistant/message'],
      [6, 106, 'step/end'],
      [7, 107, 'turn/end'],
      [8, 108, 'turn/start'],
      [9, 109, 'turn/end'],
    ]);
    expect(log.events[3]?.data).toEqual({ turn: 1, step: 1, finish: 'tool-calls' });
    expect(log.events[6]?.data).toEqual({
      turn: 1,
      step: 2,
      finish: 'stop',
      usage: { inputTokens: 1, outputTokens: 2 },
    });
    expect(log.events[9]?.data).toEqual({ turn: 2, reason: 'aborted' });
  });

  it('a seeded builder records seedLength and continues turn numbers and time after the seed', () => {
    const seed = buildLog({ startTime: 500 }).turn().turn().build().events;
    const child = buildLog({ seed, lineage: 'main/c1', spawnedBy: 'c1' }).turn().build();
    expect(child.header.seedLength).toBe(4);
    expect(child.events[4]).toEqual({ seq: 4, time: 504, type: 'turn/start', data: { turn: 3 } });
    expect(checkInvariants(child, { finished: true })).toEqual([]);
  });
});
