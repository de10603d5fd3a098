import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { saveCassette } from '../toolkit/cassette/save-cassette.js';
import type { Cassette } from '../toolkit/cassette/types.js';
import { createRecordingFetch } from '../toolkit/record/recording-fetch.js';
import { startModelServer } from '../toolkit/serve/start-model-server.js';
import { scriptedResponse, startLoopbackServer, wait, write } from '../test/support/loopback-server.js';
import { startServeProcess } from '../test/support/serve-process.js';
import { FRAMES, MESSAGES, MODEL } from './fixtures/stream-50.js';
import { compare, stats, statsOf, type Subject } from './measure.js';
import { startForwardingProxy } from './peers/forwarding-proxy.js';
import { liveSseServer } from './peers/loopback-sse.js';
import { ratioRow, type Row } from './table.js';

export const SERVE_REPLAY_GOAL = 1.15;
/** Record mode's time to first byte over calling the upstream directly, in ms. */
export const SERVE_RECORD_GOAL_MS = 1;

const REQUEST = JSON.stringify({ model: MODEL, messages: MESSAGES, stream: true });
const WARMUP = 100;
const ROUNDS = 41;
const BATCH = 5;
/** One recorded root per call the replay subject makes: every call is the same new conversation. */
const ROOTS = WARMUP + ROUNDS * BATCH + 10;

/** The bytes both servers must send: the 50 frames and `[DONE]`. */
const STREAM_TEXT = FRAMES.join('');

/** One streamed chat-completions call through plain fetch, read to its last byte; fails loudly on a wrong answer. */
async function streamedCall(url: string): Promise<void> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer dummy' },
    body: REQUEST,
  });
  const text = await response.text();
  if (response.status !== 200 || text !== STREAM_TEXT)
    throw new Error(`bench call to ${url} answered ${response.status}: ${text.slice(0, 200)}`);
}

/**
 * Item 12 (issue 27): `nestcast serve` as a separate process's model endpoint. Replay: the same
 * 50-event stream from `startModelServer({ recording })` and from a plain node:http server on
 * loopback, read by plain fetch. Record: time to the first byte through
 * `startModelServer({ record, upstream })` against calling that upstream directly, paired per round.
 */
export async function benchServeOverhead(): Promise<Row[]> {
  return [
    ...(await reportedIfFailed('12 serve/replay', replayRows)),
    ...(await reportedIfFailed('12 serve/record TTFB', recordRows)),
  ];
}

/** A half that fails is a row saying why, goal not met, and the other half still runs. */
async function reportedIfFailed(item: string, rows: () => Promise<Row[]>): Promise<Row[]> {
  try {
    return await rows();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`[bench] ${item} failed: ${reason}\n`);
    const none = { median: Number.NaN, p10: Number.NaN, p90: Number.NaN, samples: 0 };
    return [{ item, subject: `FAILED: ${reason.slice(0, 80)}`, stats: none, unit: 'ms', goal: 'runs', met: false }];
  }
}

async function replayRows(): Promise<Row[]> {
  const plain = await liveSseServer();
  const dir = await mkdtemp(join(tmpdir(), 'nestcast-bench-serve-'));
  await saveCassette(join(dir, 'recording'), await rootsRecordedFrom(plain.url));
  const served = await startModelServer({ recording: join(dir, 'recording') });
  let rows: Row[];
  try {
    const subjects: Subject[] = [
      { name: 'plain loopback server', run: () => streamedCall(plain.url) },
      { name: 'nestcast serve --recording', run: () => streamedCall(served.url) },
    ];
    for (const subject of subjects) await subject.run();
    const results = await compare(subjects, { warmup: WARMUP, rounds: ROUNDS, batch: BATCH });
    const floor = statsOf(results, 'plain loopback server');
    rows = [
      ratioRow(
        { item: '12 serve/replay', subject: 'plain loopback server', stats: floor, unit: 'µs', reference: 'plain' },
        floor,
      ),
      ratioRow(
        {
          item: '12 serve/replay',
          subject: 'nestcast serve --recording',
          stats: statsOf(results, 'nestcast serve --recording'),
          unit: 'µs',
          reference: 'plain',
          goal: `<= ${SERVE_REPLAY_GOAL}x plain`,
        },
        floor,
        SERVE_REPLAY_GOAL,
      ),
    ];
  } finally {
    await plain.close();
  }
  const summary = await served.close();
  await rm(dir, { recursive: true, force: true });
  // The recording holds more roots than the bench asks for; any other problem is a failed replay.
  const problems = summary.problems.filter((problem) => problem.code !== 'UNCONSUMED_CALLS');
  if (problems.length > 0) throw new Error(`serve replay reported: ${problems.map((p) => p.message).join('; ')}`);
  return rows;
}

/** The plain server's answer recorded once, then filed as ROOTS identical root sessions (`main`, `main-2`, …). */
async function rootsRecordedFrom(url: string): Promise<Cassette> {
  const recorder = createRecordingFetch();
  await (
    await recorder(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: REQUEST,
    })
  ).text();
  const cassette = await recorder.cassette();
  const call = cassette.calls['main']?.[0];
  if (!call) throw new Error('the bench recording holds no call of session "main"');
  const roots = Array.from({ length: ROOTS }, (_, i) => [i === 0 ? 'main' : `main-${i + 1}`, [call]] as const);
  return { ...cassette, calls: Object.fromEntries(roots) };
}

/** A model that thinks for 5 ms before its first event, then streams 50 events, as a real endpoint would. */
const PACED = [wait(5), ...FRAMES.map((frame) => write(frame))];
/**
 * Untimed rounds first: each endpoint a process of its own starts cold, and a recording session
 * makes many calls; the goal is the steady added time, not the JIT's first ones.
 */
const RECORD_WARMUP = 40;

/** The record half's subjects, each timed against the upstream called directly in the same round. */
const THROUGH = {
  tcp: 'through a TCP pipe, own process',
  http: 'through a bare node:http proxy, own process',
  process: 'through serve --record, own process',
  library: 'through startModelServer, in-process',
} as const;

/**
 * Record mode as users run it, `nestcast serve --record` in a process of its own between the
 * program and the API (the built CLI), holds the goal; the library endpoint in the client's own
 * process is shown beside it: there the endpoint's work and the client's share one event loop.
 * Two forwarders that do nothing but forward, each a process of its own, are the floor beside
 * them: a TCP pipe (the process hop alone) and a bare node:http proxy (the hop with HTTP parsed
 * and written again on each side, as any recorder must).
 */
async function recordRows(): Promise<Row[]> {
  const upstream = await startLoopbackServer(scriptedResponse(PACED));
  const dir = await mkdtemp(join(tmpdir(), 'nestcast-bench-record-'));
  const tcp = await startForwardingProxy('tcp', upstream.url);
  const http = await startForwardingProxy('http', upstream.url);
  const library = await startModelServer({ record: join(dir, 'library'), upstream: upstream.url });
  const served = await startServeProcess(['--record', join(dir, 'process'), '--upstream', upstream.url], dir);
  const endpoints: Record<string, string> = {
    [THROUGH.tcp]: tcp.url,
    [THROUGH.http]: http.url,
    [THROUGH.process]: served.url,
    [THROUGH.library]: library.url,
  };
  const direct: number[] = [];
  const through = new Map<string, number[]>(Object.keys(endpoints).map((name) => [name, []]));
  const added = new Map<string, number[]>(Object.keys(endpoints).map((name) => [name, []]));
  try {
    for (let round = -RECORD_WARMUP; round < ROUNDS; round++) {
      // Paired: each round times every subject, in an order that turns each round, and keeps the differences.
      const urls = [upstream.url, ...Object.values(endpoints)];
      const turn = mod(round, urls.length);
      const times = new Map<string, number>();
      for (const url of [...urls.slice(turn), ...urls.slice(0, turn)]) times.set(url, await timeToFirstByte(url));
      if (round < 0) continue;
      const base = times.get(upstream.url) as number;
      direct.push(base);
      for (const [name, url] of Object.entries(endpoints)) {
        through.get(name)?.push(times.get(url) as number);
        added.get(name)?.push((times.get(url) as number) - base);
      }
    }
  } finally {
    await upstream.close();
    await tcp.stop();
    await http.stop();
  }
  const summary = await library.close();
  const stopped = await served.stop();
  await rm(dir, { recursive: true, force: true });
  if (!summary.ok) throw new Error(`serve --record reported: ${summary.problems.map((p) => p.message).join('; ')}`);
  if (stopped.code !== 0) throw new Error(`nestcast serve --record exited ${stopped.code}: ${stopped.stderr}`);
  const reference = stats(direct);
  const item = '12 serve/record TTFB';
  return [
    ratioRow(
      { item, subject: 'upstream directly (5 ms think)', stats: reference, unit: 'ms', reference: 'direct' },
      reference,
    ),
    ...Object.keys(endpoints).flatMap((name) => [
      ratioRow(
        { item, subject: name, stats: stats(through.get(name) ?? []), unit: 'ms', reference: 'direct' },
        reference,
      ),
      addedRow(name, stats(added.get(name) ?? []), name === THROUGH.process),
    ]),
  ];
}

const mod = (n: number, m: number): number => ((n % m) + m) % m;

/** The added time itself; the goal is the process's (the library's figure is shown, not judged). */
function addedRow(subject: string, added: ReturnType<typeof stats>, judged: boolean): Row {
  return {
    item: '12 serve/record TTFB',
    subject: `added ${subject.replace(/^through /, 'by ')} (paired)`,
    stats: added,
    unit: 'ms',
    ...(judged ? { goal: `<= ${SERVE_RECORD_GOAL_MS} ms added`, met: added.median <= SERVE_RECORD_GOAL_MS } : {}),
  };
}

/** From sending the request to the first byte of the answer's body; the answer read whole and checked like the replay's. */
async function timeToFirstByte(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer dummy' },
    body: REQUEST,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  const elapsed = performance.now() - started;
  const decoder = new TextDecoder();
  let text = first.done ? '' : decoder.decode(first.value, { stream: true });
  for (let read = await reader.read(); !read.done; read = await reader.read())
    text += decoder.decode(read.value, { stream: true });
  text += decoder.decode();
  if (response.status !== 200 || text !== STREAM_TEXT)
    throw new Error(`bench call to ${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return elapsed;
}
