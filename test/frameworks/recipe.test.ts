// The recipe of docs/frameworks.md, as written there but for the import path.
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createRecordingFetch, createReplayingFetch, loadCassette, startModelServer } from '../../toolkit/index.js';

setTracingDisabled(true);

/** The code under test: it takes a fetch and a base URL, and names no lineage anywhere. */
async function askAgents(fetch: typeof globalThis.fetch, baseURL: string): Promise<string> {
  const client = new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'not-needed', baseURL, fetch, maxRetries: 0 });
  const model = new OpenAIChatCompletionsModel(client, 'scripted');
  const math = new Agent({ name: 'math', instructions: 'You compute.', model });
  const poet = new Agent({ name: 'poet', instructions: 'You write haiku.', model });
  const boss = new Agent({
    name: 'boss',
    instructions: 'Delegate.',
    model,
    tools: [
      math.asTool({ toolName: 'ask_math', toolDescription: 'math' }),
      poet.asTool({ toolName: 'ask_poet', toolDescription: 'poems' }),
    ],
  });
  return String((await run(boss, 'Add 2 and 2, then write a haiku.')).finalOutput);
}

test('record keyless against nestcast model-server, then replay in CI', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'recipe-'));
  try {
    // 1. Record. The script is keyed by the lineages nestcast derives: main, main/<tool-call id>.
    const server = await startModelServer({
      scripts: {
        lineages: {
          main: [
            {
              toolCalls: [
                { id: 'call_sum', name: 'ask_math', args: { input: 'Add 2 and 2' } },
                { id: 'call_poem', name: 'ask_poet', args: { input: 'A haiku on rain' } },
              ],
            },
            { text: '4, and a haiku.' },
          ],
          'main/call_sum': [{ text: '4' }],
          'main/call_poem': [{ text: 'Soft rain on the roof' }],
        },
      },
    });
    const recording = createRecordingFetch();
    await askAgents(recording, `${server.url}/v1`);
    await recording.save(dir);
    await server.close();
    expect(recording.report().ambiguities).toEqual([]);

    // 2. Replay: no key, no network; each sub-agent gets its own recording whichever calls first.
    const replay = createReplayingFetch(await loadCassette(dir));
    expect(await askAgents(replay, 'https://api.openai.com/v1')).toBe('4, and a haiku.');
    replay.assertConsumed();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
