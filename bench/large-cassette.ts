import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRecordingFetch } from '../toolkit/record/recording-fetch.js';
import { CALLS_PER_SESSION, playConversations, replyFetch } from './fixtures/conversation.js';
import type { LargeCassetteSample } from './large-cassette-child.js';
import { stats } from './measure.js';
import { ratioRow, type Row } from './table.js';

export const SIZES = [100, 1_000, 10_000] as const;
/** Per-call cost at 10,000 calls against 100: "does not grow", with room for measurement noise. */
export const GROWTH_GOAL = 1.25;
const RUNS_PER_SIZE = 3;
const CHILD = new URL('./large-cassette-child.ts', import.meta.url).pathname;

/**
 * Item 7: cassettes of 100, 1,000 and 10,000 calls (sessions of 10 calls whose requests grow, as
 * an agent loop's do), recorded through the recording fetch into a temp dir; each is loaded and
 * fully replayed in a fresh process, sizes interleaved. Goal: load and replay cost per call do not
 * grow with the cassette's size.
 */
export async function benchLargeCassette(): Promise<Row[]> {
  const root = await mkdtemp(join(tmpdir(), 'nestcast-bench-large-'));
  try {
    const dirs = new Map<number, string>();
    for (const size of SIZES) {
      const recorder = createRecordingFetch({ fetch: replyFetch });
      await playConversations(recorder, size / CALLS_PER_SESSION);
      const dir = join(root, `calls-${size}`);
      await recorder.save(dir);
      dirs.set(size, dir);
    }
    const samples = new Map<number, LargeCassetteSample[]>(SIZES.map((size) => [size, []]));
    for (let run = 0; run < RUNS_PER_SIZE; run++) {
      for (const size of SIZES)
        samples.get(size)?.push(await measureInChild(dirs.get(size) as string, size / CALLS_PER_SESSION));
    }
    return rowsOf(samples);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function measureInChild(dir: string, sessions: number): Promise<LargeCassetteSample> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', CHILD, dir, String(sessions)],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as LargeCassetteSample;
}

function rowsOf(samples: ReadonlyMap<number, readonly LargeCassetteSample[]>): Row[] {
  const of = (size: number, pick: (s: LargeCassetteSample) => number) => stats((samples.get(size) ?? []).map(pick));
  const rows: Row[] = [];
  const perCall = [
    ['load per call', (s: LargeCassetteSample) => s.loadMs / s.calls],
    ['replay per call', (s: LargeCassetteSample) => s.replayMsPerCall],
  ] as const;
  for (const [label, pick] of perCall) {
    const smallest = of(SIZES[0], pick);
    for (const size of SIZES) {
      const isLargest = size === SIZES[SIZES.length - 1];
      rows.push(
        ratioRow(
          {
            item: `7 cassette/${label}`,
            subject: `${size.toLocaleString('en-US')} calls`,
            stats: of(size, pick),
            unit: 'µs',
            reference: '100',
            ...(isLargest ? { goal: `<= ${GROWTH_GOAL}x at 100` } : {}),
          },
          smallest,
          isLargest ? GROWTH_GOAL : undefined,
        ),
      );
    }
  }
  for (const size of SIZES) {
    rows.push({
      item: '7 cassette/load total',
      subject: `${size.toLocaleString('en-US')} calls`,
      stats: of(size, (s) => s.loadMs),
      unit: 'ms',
    });
  }
  for (const size of SIZES) {
    rows.push({
      item: '7 cassette/heap kept',
      subject: `${size.toLocaleString('en-US')} calls`,
      stats: of(size, (s) => s.retainedMb),
      unit: 'MB',
    });
    rows.push({
      item: '7 cassette/peak RSS',
      subject: `${size.toLocaleString('en-US')} calls`,
      stats: of(size, (s) => s.peakRssMb),
      unit: 'MB',
    });
  }
  return rows;
}
