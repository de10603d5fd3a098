import { describe, expect, test } from 'vitest';
import { compare, statsOf, type Subject } from '../bench/measure.js';
import { formatTable, ratioRow } from '../bench/table.js';

/** A peer that works a few times, then fails the way a loopback connection reset by a loaded server does. */
function resetAfter(calls: number): Subject {
  let made = 0;
  return {
    name: 'live loopback server',
    run: () => {
      made++;
      if (made <= calls) return Promise.resolve();
      const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
      return Promise.reject(new TypeError('fetch failed', { cause: reset }));
    },
  };
}

describe('bench measurement', () => {
  test('a subject that fails is reported as its own row with the reason, and the others are still measured', async () => {
    const floor: Subject = { name: 'floor', run: () => Promise.resolve() };
    const nestcast: Subject = { name: 'nestcast', run: () => Promise.resolve() };
    const results = await compare([floor, nestcast, resetAfter(4)], { warmup: 2, rounds: 5, batch: 2 });

    const failed = statsOf(results, 'live loopback server');
    expect(failed.failure).toBe('fetch failed: read ECONNRESET');
    expect(failed.samples).toBe(0);
    for (const name of ['floor', 'nestcast']) {
      const measured = statsOf(results, name);
      expect(measured.failure).toBeUndefined();
      expect(measured.samples).toBe(5);
      expect(measured.cpu?.samples).toBe(5);
    }

    const reference = statsOf(results, 'floor');
    const rows = [
      ratioRow(
        { item: '1', subject: 'nestcast', stats: statsOf(results, 'nestcast'), unit: 'µs', reference: 'floor' },
        reference,
      ),
      ratioRow(
        { item: '1', subject: 'live loopback server', stats: failed, unit: 'µs', goal: '<= 1.1x' },
        reference,
        1.1,
      ),
    ];
    expect(rows[0]?.cpuRatio).toBeTypeOf('number');
    expect(rows[1]?.met).toBe(false);
    const table = formatTable(rows);
    expect(table).toContain('failed: fetch failed: read ECONNRESET');
    expect(table.split('\n')[0]).toContain('cpu (ratio)');
  });
});
