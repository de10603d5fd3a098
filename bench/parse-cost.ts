import { Stream } from 'openai/core/streaming';
import { ChunkTranslator, SseDecoder } from '../harness/llm/index.js';
import { EXPECTED_TEXT, frameStream, SSE_HEADERS } from './fixtures/stream-50.js';
import { compare, statsOf, type Subject } from './measure.js';
import { ratioRow, type Row } from './table.js';

export const PARSE_GOAL = 0.5;

const response = (): Response => new Response(frameStream(), { status: 200, headers: SSE_HEADERS });

/** The harness adapter's parse loop as `streamCall` runs it: read, decode, split, translate. */
async function adapterParse(): Promise<string> {
  const reader = (response().body as ReadableStream<Uint8Array>).getReader();
  const decoder = new SseDecoder();
  const translator = new ChunkTranslator('POST bench');
  let text = '';
  for (;;) {
    const read = await reader.read();
    if (read.done) break;
    for (const message of decoder.push(read.value)) {
      for (const event of translator.accept(message.data)) if (event.type === 'text-delta') text += event.text;
    }
    if (decoder.done) {
      translator.end();
      break;
    }
  }
  return text;
}

/** The `openai` SDK's stream parser over the same response. */
async function sdkParse(): Promise<string> {
  const stream = Stream.fromSSEResponse<{ choices: { delta: { content?: string } }[] }>(
    response(),
    new AbortController(),
  );
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

/** Item 2: parsing the same 50-event stream from memory. Goal: the adapter at most half the SDK's time. */
export async function benchParseCost(): Promise<Row[]> {
  const subjects: Subject[] = [
    { name: 'openai SDK stream parser', run: sdkParse },
    { name: 'harness adapter parse loop', run: adapterParse },
  ];
  for (const subject of subjects) {
    const text = (await subject.run()) as string;
    if (text !== EXPECTED_TEXT)
      throw new Error(`bench subject "${subject.name}" parsed ${JSON.stringify(text.slice(0, 80))}…`);
  }
  const results = await compare(subjects, { warmup: 300, rounds: 61, batch: 10 });
  const sdk = statsOf(results, 'openai SDK stream parser');
  const item = '2 parse';
  return [
    ratioRow({ item, subject: 'openai SDK stream parser', stats: sdk, unit: 'µs', reference: 'SDK' }, sdk),
    ratioRow(
      {
        item,
        subject: 'harness adapter parse loop',
        stats: statsOf(results, 'harness adapter parse loop'),
        unit: 'µs',
        reference: 'SDK',
        goal: `<= ${PARSE_GOAL}x SDK`,
      },
      sdk,
      PARSE_GOAL,
    ),
  ];
}
