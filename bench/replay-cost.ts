import { anthropicMessages } from '../toolkit/protocols/anthropic-messages/anthropic-messages.js';
import { gemini } from '../toolkit/protocols/gemini/gemini.js';
import { openaiResponses } from '../toolkit/protocols/openai-responses/openai-responses.js';
import {
  anthropicSdk,
  CONSUMERS,
  checkedCall,
  googleGenaiSdk,
  openaiResponsesSdk,
  type Call,
  type Consumer,
} from './fixtures/consumers.js';
import { renderedFloorFetch } from './fixtures/rendered-50.js';
import { MODEL } from './fixtures/stream-50.js';
import { compare, statsOf, type Subject } from './measure.js';
import { floorFetch } from './peers/floor-fetch.js';
import { liveSseServer } from './peers/loopback-sse.js';
import { globalFetch, MSW_BASE_URL, mswServer } from './peers/msw-fetch.js';
import { nestcastReplay } from './peers/nestcast-replay.js';
import { pollyReplay } from './peers/polly-fetch.js';
import { ratioRow, type Row } from './table.js';
import type { WireProtocol } from '../toolkit/protocols/wire-protocol.js';

/** Never reached: injected fetches answer before any connection. */
const INJECTED_BASE_URL = 'http://127.0.0.1:9/v1';
export const REPLAY_GOAL = 1.1;
/** Samples per subject: each of 5 calls, so the median stands on 605 calls per subject after warm-up. */
const TIMING = { warmup: 200, rounds: 121, batch: 5 } as const;

/** The adapter names its session in the header; the openai SDK names none, so replay threads it by content. */
function nestcastSubject(consumer: string): string {
  return consumer === 'adapter'
    ? 'nestcast replaying fetch (header)'
    : 'nestcast replaying fetch (threaded, no header)';
}

/**
 * Item 1: one model call of 50 streamed text events, per consumer, served five ways side by side.
 * Goal: nestcast's replaying fetch within 1.10x of the floor.
 */
export async function benchReplayCost(): Promise<Row[]> {
  const realFetch = globalThis.fetch;
  const live = await liveSseServer();
  const msw = mswServer();
  msw.listen({ onUnhandledRequest: 'bypass' });
  const rows: Row[] = [];
  try {
    for (const consumer of CONSUMERS) {
      const bindInjected = (fetch: typeof globalThis.fetch): Call => consumer.bind(fetch, INJECTED_BASE_URL);
      const polly = await pollyReplay(`replay-${consumer.name}`, floorFetch, bindInjected);
      try {
        const subjects: Subject[] = [
          { name: 'floor (bytes from memory)', run: bindInjected(floorFetch) },
          { name: nestcastSubject(consumer.name), run: bindInjected(await nestcastReplay(floorFetch, bindInjected)) },
          { name: 'Polly.js replay', run: bindInjected(polly.fetch) },
          { name: 'msw handler', run: consumer.bind(globalFetch, MSW_BASE_URL) },
          { name: 'live loopback server', run: consumer.bind(realFetch, `${live.url}/v1`) },
        ];
        rows.push(...(await measured(`1 replay/${consumer.name}`, subjects)));
      } finally {
        await polly.stop();
      }
    }
  } finally {
    msw.close();
    await live.close();
  }
  for (const [consumer, protocol] of OTHER_APIS) rows.push(...(await benchApiReplay(consumer, protocol)));
  return rows;
}

/** The other model APIs, each read by its own SDK: the Agents SDK's default, Claude's, Gemini's. */
const OTHER_APIS: ReadonlyArray<readonly [Consumer, WireProtocol]> = [
  [openaiResponsesSdk, openaiResponses],
  [anthropicSdk, anthropicMessages],
  [googleGenaiSdk, gemini],
];

/**
 * Item 1 for another API: the same 50 text deltas in that API's wire form, read by its SDK's
 * stream, nestcast's replay (threaded, no header) against the floor of those frames from memory.
 */
export async function benchApiReplay(consumer: Consumer, protocol: WireProtocol): Promise<Row[]> {
  const upstream = renderedFloorFetch(protocol, MODEL);
  const bind = (fetch: typeof globalThis.fetch): Call => consumer.bind(fetch, INJECTED_BASE_URL);
  const subjects: Subject[] = [
    { name: 'floor (bytes from memory)', run: bind(upstream) },
    { name: nestcastSubject(consumer.name), run: bind(await nestcastReplay(upstream, bind)) },
  ];
  return measured(`1 replay/${consumer.name}`, subjects);
}

/**
 * Checks each subject streams the recorded text, times them side by side and makes their rows.
 * A subject that fails (the check or any later call: a loopback server resetting its connection
 * under load) is that subject's row, `failed: <reason>`, and the others are still measured.
 */
async function measured(item: string, subjects: readonly Subject[]): Promise<Row[]> {
  const checked: Subject[] = [];
  for (const subject of subjects) {
    try {
      await checkedCall(subject.name, subject.run as Call);
      checked.push(subject);
    } catch (error) {
      checked.push({ name: subject.name, run: () => Promise.reject(error) });
    }
  }
  const results = await compare(checked, TIMING);
  const floor = statsOf(results, 'floor (bytes from memory)');
  return checked.map((subject) => {
    const isNestcast = subject.name.startsWith('nestcast');
    return ratioRow(
      {
        item,
        subject: subject.name,
        stats: statsOf(results, subject.name),
        unit: 'µs',
        reference: 'floor',
        ...(isNestcast ? { goal: `<= ${REPLAY_GOAL}x floor` } : {}),
      },
      floor,
      isNestcast ? REPLAY_GOAL : undefined,
    );
  });
}
