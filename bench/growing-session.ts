/**
 * Item 11: sessions whose history grows with every call (each call sends the previous call's
 * messages, its reply and one new user message), recorded through the recording fetch, saved,
 * loaded and replayed, each step in a fresh process so its peak RSS is its own.
 *
 * - Cassettes of 100 to 100,000 calls in sessions of SESSION_CALLS calls: per-call record, save,
 *   load and replay cost, goal flat within 1.25x of the cost at 100 calls.
 * - One session of 100 to 10,000 calls: its requests grow with the session, so a call's own size
 *   does too, for the client as much as for nestcast; the goal is nestcast's per-call cost as a
 *   steady multiple of the client's (what the client pays to send the same requests), and peak RSS
 *   under 300 MB at 10,000 calls.
 *
 * Part of `npm run bench`; alone: npx tsx bench/growing-session.ts [largest=100000]
 */
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir, removeTempDir } from '../test/support/temp-dir.js';
import type { GrowingSessionSample } from './growing-session-child.js';
import { stats } from './measure.js';
import { formatTable, ratioRow, type Row } from './table.js';

export const FLAT_GOAL = 1.25;
export const RSS_GOAL_MB = 300;
const SESSION_CALLS = 100;
const CHILD = new URL('./growing-session-child.ts', import.meta.url).pathname;

async function measure(
  mode: GrowingSessionSample['mode'],
  calls: number,
  perSession: number,
  dir: string,
): Promise<GrowingSessionSample> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', CHILD, mode, String(calls), String(perSession), dir],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as GrowingSessionSample;
}

const n = (calls: number) => `${calls.toLocaleString('en-US')} calls`;
const one = (value: number) => stats([value]);

export async function benchGrowingSession(largest = 100_000): Promise<Row[]> {
  const root = await makeTempDir('bench-growing-');
  const rows: Row[] = [];
  const load: number[] = [loadavg()[0] as number];
  try {
    const sizes = [100, 1_000, 10_000, 100_000].filter((size) => size <= largest);
    const bounded = new Map<number, { record: GrowingSessionSample; replay: GrowingSessionSample }>();
    for (const calls of sizes) {
      const dir = join(root, `bounded-${calls}`);
      const record = await measure('record', calls, Math.min(SESSION_CALLS, calls), dir);
      const replay = await measure('replay', calls, Math.min(SESSION_CALLS, calls), dir);
      bounded.set(calls, { record, replay });
    }
    const per = [
      ['record per call', (s: { record: GrowingSessionSample }) => s.record.msPerCall],
      ['save per call', (s: { record: GrowingSessionSample }) => s.record.fileMsPerCall],
      ['load per call', (s: { replay: GrowingSessionSample }) => s.replay.fileMsPerCall],
      ['replay per call', (s: { replay: GrowingSessionSample }) => s.replay.msPerCall],
    ] as const;
    for (const [label, pick] of per) {
      const smallest = one(pick(bounded.get(sizes[0] as number) as never));
      for (const calls of sizes) {
        const isLargest = calls === sizes[sizes.length - 1];
        rows.push(
          ratioRow(
            {
              item: `11 sessions of ${SESSION_CALLS}/${label}`,
              subject: n(calls),
              stats: one(pick(bounded.get(calls) as never)),
              unit: 'µs',
              reference: '100',
              ...(isLargest ? { goal: `<= ${FLAT_GOAL}x at 100` } : {}),
            },
            smallest,
            isLargest ? FLAT_GOAL : undefined,
          ),
        );
      }
    }
    for (const calls of sizes) {
      const sample = bounded.get(calls);
      if (!sample) continue;
      rows.push({
        item: `11 sessions of ${SESSION_CALLS}/peak RSS`,
        subject: `${n(calls)}, record / replay`,
        stats: one(Math.max(sample.record.peakRssMb, sample.replay.peakRssMb)),
        unit: 'MB',
      });
    }

    for (const calls of [100, 1_000, 10_000].filter((size) => size <= largest)) {
      const dir = join(root, `one-${calls}`);
      const client = await measure('client', calls, calls, dir);
      const record = await measure('record', calls, calls, dir);
      const replay = await measure('replay', calls, calls, dir);
      const clientStats = one(client.msPerCall);
      rows.push({ item: '11 one session/client alone', subject: n(calls), stats: clientStats, unit: 'µs' });
      rows.push(
        ratioRow(
          {
            item: '11 one session/record',
            subject: n(calls),
            stats: one(record.msPerCall),
            unit: 'µs',
            reference: 'client',
          },
          clientStats,
        ),
      );
      rows.push(
        ratioRow(
          {
            item: '11 one session/replay',
            subject: n(calls),
            stats: one(replay.msPerCall),
            unit: 'µs',
            reference: 'client',
          },
          clientStats,
        ),
      );
      rows.push({
        item: '11 one session/load per call',
        subject: n(calls),
        stats: one(replay.fileMsPerCall),
        unit: 'µs',
      });
      const rss = Math.max(record.peakRssMb, replay.peakRssMb);
      rows.push({
        item: '11 one session/peak RSS',
        subject: `${n(calls)}, record / replay`,
        stats: one(rss),
        unit: 'MB',
        ...(calls === 10_000 ? { goal: `< ${RSS_GOAL_MB} MB`, met: rss < RSS_GOAL_MB } : {}),
      });
    }
    load.push(loadavg()[0] as number);
    process.stderr.write(`[bench] 11: load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}\n`);
    return rows;
  } finally {
    await removeTempDir(root);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [largest] = process.argv.slice(2).map(Number);
  process.stdout.write(`${formatTable(await benchGrowingSession(largest || undefined))}\n`);
}
