import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelServer } from 'nestcast/toolkit';
import { withCassette } from 'nestcast/vitest';
import OpenAI from 'openai';
import { afterAll, expect } from 'vitest';

// nestcast/vitest under this project's vitest major: one cassette folder, recorded by the first
// test ('once': it does not exist yet) and replayed by the second with the model server unasked.
const dir = await mkdtemp(join(tmpdir(), 'nestcast-ecosystem-cassette-'));
const server = await startModelServer({ scripts: { model: 'scripted', lineages: { main: [{ text: 'Sunny.' }] } } });
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const test = withCassette({ mode: 'once', dir: () => dir });

async function ask(fetch: typeof globalThis.fetch): Promise<string> {
  const client = new OpenAI({ apiKey: 'sk-test-not-a-key', baseURL: `${server.url}/v1`, fetch, maxRetries: 0 });
  const reply = await client.chat.completions.create({
    model: 'scripted',
    messages: [{ role: 'user', content: 'Weather?' }],
  });
  return reply.choices[0]?.message.content ?? '';
}

test('the first run of a cassette test records the model call through cassette.fetch', async ({ cassette }) => {
  expect(await ask(cassette.fetch)).toBe('Sunny.');
  expect(server.requests('main')).toHaveLength(1);
});

test('the next run replays it from the folder, keyless, without asking the model server', async ({ cassette }) => {
  expect(await readdir(dir)).toContain('meta.json');
  expect(await ask(cassette.fetch)).toBe('Sunny.');
  expect(server.requests('main')).toHaveLength(1);
});
