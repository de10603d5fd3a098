/**
 * One measurement of item 7, alone in its own process so the heap it reports is the cassette's:
 * load the cassette in argv[2] (argv[3] sessions), then replay every call. Prints one JSON line.
 * Run by large-cassette.ts with `--expose-gc`.
 */
import { performance } from 'node:perf_hooks';
import { loadCassette } from '../toolkit/cassette/load-cassette.js';
import { createReplayingFetch } from '../toolkit/replay/replaying-fetch.js';
import { CALLS_PER_SESSION, playConversations } from './fixtures/conversation.js';

export interface LargeCassetteSample {
  readonly calls: number;
  readonly loadMs: number;
  /** Heap kept by the loaded cassette after a full GC. */
  readonly retainedMb: number;
  /** Peak resident memory of the whole process (node, tsx, the cassette, the replay). */
  readonly peakRssMb: number;
  /** Median time per replayed call, over batches of one session's calls. */
  readonly replayMsPerCall: number;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const [dir, sessionsArg] = process.argv.slice(2);
const sessions = Number(sessionsArg);

gc();
const before = process.memoryUsage().heapUsed;
const loadStarted = performance.now();
const cassette = await loadCassette(dir as string);
const loadMs = performance.now() - loadStarted;
gc();
const retainedMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;

const replay = createReplayingFetch(cassette, { mode: 'strict' });
const perCall: number[] = [];
let calls = 0;
let batchStarted = performance.now();
await playConversations(replay, sessions, () => {
  if (++calls % CALLS_PER_SESSION !== 0) return;
  const now = performance.now();
  perCall.push((now - batchStarted) / CALLS_PER_SESSION);
  batchStarted = now;
});
replay.assertConsumed();
perCall.sort((a, b) => a - b);
const sample: LargeCassetteSample = {
  calls,
  loadMs,
  retainedMb,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
  replayMsPerCall: perCall[Math.floor(perCall.length / 2)] ?? Number.NaN,
};
process.stdout.write(`${JSON.stringify(sample)}\n`);
