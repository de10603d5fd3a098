import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { AuthoredScript, AuthoredTurn } from '../toolkit/authored/types.js';
import type { Cassette } from '../toolkit/cassette/types.js';
import { startModelServer } from '../toolkit/model-server/model-server.js';
import { createRecordingFetch } from '../toolkit/record/recording-fetch.js';
import { createReplayingFetch } from '../toolkit/replay/replaying-fetch.js';
import { compare, type Stats, type Subject } from './measure.js';
import { ratioRow, type Row } from './table.js';

/** main delegates to 3 children; they delegate to 3, 3 and 2 grandchildren: 12 sessions, 3 levels, 16 model calls. */
const FAN_OUT: Readonly<Record<string, number>> = { main: 3, 'main/call_1': 3, 'main/call_2': 3, 'main/call_3': 2 };
const delegate: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'delegate',
    parameters: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] },
  },
};

function treeScript(): { script: AuthoredScript; calls: number; sessions: number } {
  const lineages: Record<string, AuthoredTurn[]> = {};
  let calls = 0;
  const add = (lineage: string): void => {
    const fan = FAN_OUT[lineage] ?? 0;
    const ids = Array.from({ length: fan }, (_, i) => `call_${i + 1}`);
    const turns: AuthoredTurn[] =
      fan === 0
        ? [{ text: `answer of ${lineage}` }]
        : [
            { toolCalls: ids.map((id) => ({ id, name: 'delegate', args: { task: `task ${lineage}/${id}` } })) },
            { text: `summary of ${lineage}` },
          ];
    lineages[lineage] = turns;
    calls += turns.length;
    for (const id of ids) add(`${lineage}/${id}`);
  };
  add('main');
  return { script: { lineages }, calls, sessions: Object.keys(lineages).length };
}

/** A hand-written loop over the openai SDK; `named` sends each session's lineage in the header instead of letting replay derive it. */
function runTree(fetch: typeof globalThis.fetch, named: boolean): () => Promise<string> {
  const client = new OpenAI({ apiKey: 'x', baseURL: 'http://model.nestcast.invalid/v1', fetch, maxRetries: 0 });
  const loop = async (lineage: string, prompt: string): Promise<string> => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: prompt }];
    for (;;) {
      const headers = named ? { 'x-session-lineage': lineage } : {};
      const stream = await client.chat.completions.create(
        { model: 'm', messages, tools: [delegate], stream: true },
        { headers },
      );
      let text = '';
      const calls: { id: string; args: string }[] = [];
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta;
        text += delta?.content ?? '';
        for (const fragment of delta?.tool_calls ?? []) {
          const call = (calls[fragment.index] ??= { id: '', args: '' });
          call.id ||= fragment.id ?? '';
          call.args += fragment.function?.arguments ?? '';
        }
      }
      if (calls.length === 0) return text;
      messages.push({
        role: 'assistant',
        content: text,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: 'delegate', arguments: call.args },
        })),
      });
      const results = await Promise.all(
        calls.map((call) =>
          loop(`${lineage}/${call.id}`, `Do this: ${(JSON.parse(call.args) as { task: string }).task}`),
        ),
      );
      calls.forEach((call, i) => messages.push({ role: 'tool', tool_call_id: call.id, content: results[i] as string }));
    }
  };
  return () => loop('main', 'Run the whole tree.');
}

async function recordTree(script: AuthoredScript): Promise<Cassette> {
  const server = await startModelServer({ scripts: script, eventDelay: 0 });
  try {
    const recording = createRecordingFetch();
    const redirect: typeof globalThis.fetch = (input, init) =>
      recording(String(input).replace('http://model.nestcast.invalid', server.url), init);
    await runTree(redirect, false)();
    return await recording.cassette();
  } finally {
    await server.close();
  }
}

/**
 * Item 9: a 3-level, 12-session tree of concurrent sub-agents over the openai SDK, replayed end to
 * end, per model call: sessions derived from content (no lineage anywhere) against the same
 * tree naming every session in the header.
 */
export async function benchThreadedTree(): Promise<Row[]> {
  const { script, calls, sessions } = treeScript();
  const cassette = await recordTree(script);
  if (Object.keys(cassette.calls).length !== sessions)
    throw new Error(`the tree recorded ${Object.keys(cassette.calls).length} sessions, not ${sessions}`);
  const subject = (name: string, named: boolean): Subject => ({
    name,
    run: async () => {
      const replay = createReplayingFetch(cassette);
      await runTree(replay, named)();
      replay.assertConsumed();
    },
  });
  const subjects = [subject('named (x-session-lineage header)', true), subject('threaded (no lineage)', false)];
  const results = await compare(subjects, { warmup: 20, rounds: 31, batch: 3 });
  const perCall = (stats: Stats | undefined): Stats => {
    if (!stats) throw new Error('missing subject');
    return { ...stats, median: stats.median / calls, p10: stats.p10 / calls, p90: stats.p90 / calls };
  };
  const named = perCall(results.get('named (x-session-lineage header)'));
  const item = `9 tree/${sessions} sessions`;
  return [
    ratioRow(
      { item, subject: 'named (x-session-lineage header), per call', stats: named, unit: 'µs', reference: 'named' },
      named,
    ),
    ratioRow(
      {
        item,
        subject: 'threaded (no lineage), per call',
        stats: perCall(results.get('threaded (no lineage)')),
        unit: 'µs',
        reference: 'named',
      },
      named,
    ),
  ];
}
