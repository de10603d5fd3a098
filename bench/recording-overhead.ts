import { performance } from 'node:perf_hooks';
import { createOpenAICompatibleAdapter } from '../harness/llm/index.js';
import { createRecordingFetch } from '../toolkit/record/recording-fetch.js';
import { scriptedResponse, startLoopbackServer, wait, write } from '../test/support/loopback-server.js';
import { EXPECTED_TEXT, FRAMES, MESSAGES, MODEL } from './fixtures/stream-50.js';
import { stats } from './measure.js';
import { ratioRow, type Row } from './table.js';

export const RECORDING_GOAL = 1.1;
const ROUNDS = 25;
const WARMUP = 3;

interface Timing {
  readonly firstEvent: number;
  readonly total: number;
}

/** A model that thinks for 20 ms, then paces its 50 events 1 ms apart, as a real endpoint streams. */
const PACED = [wait(20), ...FRAMES.flatMap((frame) => [write(frame), wait(1)])];

/**
 * Item 3: the recording fetch against plain passthrough to a live loopback server that paces its
 * events, through the harness adapter: time to the first text event and to the end of the call.
 * A fresh recording fetch per call, as each recorded scenario gets. Goal: both ratios at most 1.1.
 */
export async function benchRecordingOverhead(): Promise<Row[]> {
  const server = await startLoopbackServer(scriptedResponse(PACED));
  const realFetch = globalThis.fetch;
  const subjects = {
    passthrough: () => realFetch,
    'recording fetch': () => createRecordingFetch({ fetch: realFetch }) as typeof fetch,
  } as const;
  const names = Object.keys(subjects) as (keyof typeof subjects)[];
  const samples = new Map(names.map((name) => [name, { firstEvent: [] as number[], total: [] as number[] }]));
  try {
    for (let round = -WARMUP; round < ROUNDS; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(round + WARMUP + k) % names.length] as keyof typeof subjects;
        const timing = await timedCall(subjects[name](), server.url);
        if (round < 0) continue;
        samples.get(name)?.firstEvent.push(timing.firstEvent);
        samples.get(name)?.total.push(timing.total);
      }
    }
  } finally {
    await server.close();
  }
  const rows: Row[] = [];
  for (const metric of ['firstEvent', 'total'] as const) {
    const item = `3 record/${metric === 'firstEvent' ? 'first event' : 'total'}`;
    const reference = stats(samples.get('passthrough')?.[metric] ?? []);
    rows.push(
      ratioRow(
        { item, subject: 'passthrough (live server)', stats: reference, unit: 'ms', reference: 'passthrough' },
        reference,
      ),
    );
    rows.push(
      ratioRow(
        {
          item,
          subject: 'nestcast recording fetch',
          stats: stats(samples.get('recording fetch')?.[metric] ?? []),
          unit: 'ms',
          reference: 'passthrough',
          goal: `<= ${RECORDING_GOAL}x passthrough`,
        },
        reference,
        RECORDING_GOAL,
      ),
    );
  }
  return rows;
}

async function timedCall(fetch: typeof globalThis.fetch, baseUrl: string): Promise<Timing> {
  const adapter = createOpenAICompatibleAdapter({ baseUrl, fetch, env: {} });
  const request = {
    model: MODEL,
    system: MESSAGES[0].content,
    messages: [{ role: 'user' as const, content: MESSAGES[1].content }],
  };
  const started = performance.now();
  let firstEvent = Number.NaN;
  let text = '';
  for await (const event of adapter.stream(request, { lineage: 'main' })) {
    if (event.type !== 'text-delta') continue;
    if (text === '') firstEvent = performance.now() - started;
    text += event.text;
  }
  const total = performance.now() - started;
  if (text !== EXPECTED_TEXT)
    throw new Error(`a recording-overhead call streamed ${JSON.stringify(text.slice(0, 80))}…, not the served text`);
  return { firstEvent, total };
}
