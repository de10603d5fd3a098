import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AuthoredScript } from '../authored/types.js';
import { loadCassette } from '../cassette/load-cassette.js';
import { listFiles, makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { withLineage } from '../lineage/lineage-scope.js';
import { createRecordingFetch } from '../record/recording-fetch.js';
import { createReplayingFetch } from '../replay/replaying-fetch.js';
import { startModelServerFrom } from '../cli/commands/model-server.js';
import { main } from '../cli/main.js';
import { startModelServer, type ModelServer } from './model-server.js';

const script: AuthoredScript = {
  model: 'scripted',
  lineages: {
    main: [
      {
        reasoning: 'Need the weather.',
        text: 'Checking.',
        toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }],
      },
      { text: 'Sunny in Paris.' },
    ],
    'main/call_x': [{ text: 'child answer' }, { networkError: 'reset-mid-stream', text: 'cut off' }],
  },
};

const tools = [
  {
    type: 'function' as const,
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  },
];

let server: ModelServer | undefined;
let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('cassette-');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await removeTempDir(dir);
});

/** A two-call tool-calling exchange through the SDK: returns every chunk the SDK parsed. */
async function toolExchange(client: OpenAI): Promise<ChatCompletionChunk[]> {
  const seen: ChatCompletionChunk[] = [];
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
  const first = await client.chat.completions.create({
    model: 'scripted',
    messages,
    tools,
    stream: true,
    stream_options: { include_usage: true },
  });
  let args = '';
  let id = '';
  for await (const chunk of first) {
    seen.push(chunk);
    const call = chunk.choices[0]?.delta.tool_calls?.[0];
    id ||= call?.id ?? '';
    args += call?.function?.arguments ?? '';
  }
  messages.push({
    role: 'assistant',
    content: '',
    tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: args } }],
  });
  messages.push({ role: 'tool', tool_call_id: id, content: '{"sky":"clear"}' });
  const second = await client.chat.completions.create({
    model: 'scripted',
    messages,
    tools,
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const chunk of second) seen.push(chunk);
  return seen;
}

describe('model server with the official openai SDK', () => {
  test('an exchange recorded through the nestcast fetch replays with identical parsed results', async () => {
    server = await startModelServer({ scripts: script });
    const recording = createRecordingFetch({ secrets: ['sk-not-real-0000'] });
    const live = new OpenAI({ apiKey: 'sk-not-real-0000', baseURL: server.url, fetch: recording, maxRetries: 0 });
    const recorded = await withLineage('main', () => toolExchange(live));
    await recording.save(dir);

    const replay = createReplayingFetch(await loadCassette(dir));
    const offline = new OpenAI({
      apiKey: 'sk-not-real-0000',
      baseURL: 'http://127.0.0.1:1',
      fetch: replay,
      maxRetries: 0,
    });
    const replayed = await withLineage('main', () => toolExchange(offline));

    expect(replayed).toEqual(recorded);
    expect(recorded.some((chunk) => chunk.choices[0]?.delta.tool_calls)).toBe(true);
    replay.assertConsumed();
    const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8'));
    expect(meta.provenance).toMatchObject({ source: 'recorded', host: '127.0.0.1', model: 'scripted' });
  });

  test('recording the same exchange twice from the model server leaves the files byte-identical', async () => {
    const recordOnce = async (): Promise<Record<string, string>> => {
      server = await startModelServer({ scripts: script });
      const recording = createRecordingFetch();
      await withLineage('main', () =>
        toolExchange(new OpenAI({ apiKey: 'sk-not-real-1111', baseURL: server!.url, fetch: recording, maxRetries: 0 })),
      );
      await recording.save(dir);
      await server.close();
      const files: Record<string, string> = {};
      for (const file of await listFiles(dir)) files[file] = await readFile(join(dir, file), 'utf8');
      return files;
    };
    const first = await recordOnce();
    expect(await recordOnce()).toEqual(first);
  });
});

describe('model server over HTTP', () => {
  // Bare bodies carry no conversation to thread by, so the session is named.
  const post = (lineage = 'main') => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-lineage': lineage },
    body: '{"model":"scripted","messages":[],"stream":true}',
  });

  test('serves each session its own turns, keyed by the lineage header', async () => {
    server = await startModelServer({ scripts: script });
    const child = await (await fetch(`${server.url}/v1/chat/completions`, post('main/call_x'))).text();
    const main = await (await fetch(`${server.url}/chat/completions`, post())).text();
    expect(child).toContain('"content":"child "');
    expect(main).toContain('"content":"Checking"');
    expect(main.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  test('an unknown session gets a 422 UNRECORDED_SESSION naming the known sessions and the script, no placeholder command', async () => {
    server = await startModelServer({ scripts: script });
    const response = await fetch(`${server.url}/chat/completions`, post('main/call_y'));
    expect(response.status).toBe(422);
    const { error } = (await response.json()) as { error: { message: string; code: string } };
    expect(error.code).toBe('UNRECORDED_SESSION');
    expect(error.message).toContain('Recorded sessions: main, main/call_x.');
    expect(error.message).toContain('a turn for it in the script');
    expect(error.message).not.toContain('<scenario>');
  });

  test('a session past its last scripted turn gets a 422 CASSETTE_EXHAUSTED', async () => {
    server = await startModelServer({ scripts: { lineages: { main: [{ text: 'only one' }] } } });
    await (await fetch(`${server.url}/chat/completions`, post())).text();
    const response = await fetch(`${server.url}/chat/completions`, post());
    expect(response.status).toBe(422);
    const { error } = (await response.json()) as { error: { message: string; code: string } };
    expect(error).toMatchObject({
      code: 'CASSETTE_EXHAUSTED',
      message: expect.stringContaining('recorded only 1 call'),
    });
  });

  test('a scripted mid-stream reset drops the real connection, and a recorder captures it as a network failure', async () => {
    server = await startModelServer({ scripts: script });
    // Our own model server: the recorder passes the lineage on (a real endpoint never gets it).
    const recording = createRecordingFetch({ forwardLineage: true });
    await (await recording(`${server.url}/chat/completions`, post('main/call_x'))).text();
    const cut = await recording(`${server.url}/chat/completions`, post('main/call_x'));
    await expect(cut.text()).rejects.toThrow('terminated');
    const calls = (await recording.cassette()).calls['main/call_x'];
    expect(calls?.[1]?.response).toMatchObject({ error: { kind: 'network', partial: { status: 200 } } });
  });

  test('keeps the parsed body of every request per session, in order, answered or not', async () => {
    server = await startModelServer({ scripts: { lineages: { main: [{ text: 'one' }] } } });
    await (await fetch(`${server.url}/chat/completions`, post())).text();
    await (await fetch(`${server.url}/chat/completions`, post('main/call_x'))).text();
    await (
      await fetch(`${server.url}/chat/completions`, { ...post(), body: '{"model":"second","messages":[]}' })
    ).text();
    expect(server.requests('main')).toEqual([
      { model: 'scripted', messages: [], stream: true },
      { model: 'second', messages: [] },
    ]);
    expect(server.requests('main/call_x')).toEqual([{ model: 'scripted', messages: [], stream: true }]);
    expect(server.requests('main/call_y')).toEqual([]);
  });

  test("turns added after start are served after the session's scripted turns, and make an unknown session known", async () => {
    server = await startModelServer({ scripts: { lineages: { main: [{ text: 'scripted' }] } } });
    server.add('main', { text: 'added', toolCalls: [{ name: 'get_weather', args: { city: 'Oslo' } }] });
    server.add('main/call_z', { httpError: { status: 429, body: { error: { message: 'slow down' } } } });
    const first = await (await fetch(`${server.url}/chat/completions`, post())).text();
    const second = await (await fetch(`${server.url}/chat/completions`, post())).text();
    const child = await fetch(`${server.url}/chat/completions`, post('main/call_z'));
    expect(first).toContain('"content":"scripted"');
    expect(second).toContain('"content":"added"');
    // Ids run on from the earlier turns, as if the turns had been in the script from the start.
    expect(second).toMatch(/"id":"chatcmpl-[0-9a-f]{8}-2"/);
    expect(second).toMatch(/"id":"call_[0-9a-f]{8}_1"/);
    expect(child.status).toBe(429);
    expect(server.report().sessions).toContainEqual({ lineage: 'main', consumed: 2, total: 2 });
  });

  test('adding an invalid turn is SCRIPT_INVALID, and adding to a session already refused a call says it is too late', async () => {
    server = await startModelServer({ scripts: { lineages: {} } });
    expect(() => server!.add('main', { text: 1 } as never)).toThrow(
      expect.objectContaining({ code: 'SCRIPT_INVALID', message: expect.stringContaining('/lineages/main/0') }),
    );
    expect((await fetch(`${server.url}/chat/completions`, post())).status).toBe(422);
    expect(() => server!.add('main', { text: 'late' })).toThrow(
      expect.objectContaining({ code: 'SCRIPT_INVALID', message: expect.stringContaining('already refused') }),
    );
  });

  test('anything but POST …/chat/completions is a 404', async () => {
    server = await startModelServer({ scripts: script });
    expect((await fetch(`${server.url}/models`)).status).toBe(404);
  });
});

describe('nestcast model-server', () => {
  test('is an alias of serve --script: loads a JSON script, prints the URL and the environment lines, and serves it', async () => {
    await writeFile(join(dir, 'script.json'), JSON.stringify(script));
    const printed: string[] = [];
    server = await startModelServerFrom(['--script', 'script.json'], (text) => printed.push(text), dir);
    expect(printed.join('')).toMatch(
      new RegExp(`^${server!.url}\\nOPENAI_BASE_URL=${server!.url}/v1\\nOPENAI_API_KEY=nestcast-dummy-key\\n`),
    );
    expect(server!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server!.url}/chat/completions`, { method: 'POST', body: '{"stream":true}' });
    expect(await response.text()).toContain('"content":"Checking"');
  });

  test('--help prints the usage and starts nothing', async () => {
    const printed: string[] = [];
    const io = {
      stdout: (text: string) => void printed.push(text),
      stderr: (text: string) => void printed.push(text),
      env: {},
      cwd: dir,
      color: false,
    };
    expect(await main(['model-server', '--help'], io)).toBe(0);
    expect(printed.join('')).toContain('Usage: nestcast model-server --script <file.json|file.ts>');
  });

  test('a missing --script is a usage error, and an invalid script is SCRIPT_INVALID', async () => {
    await expect(startModelServerFrom([], () => undefined, dir)).rejects.toMatchObject({
      name: 'UsageError',
      message: '--script <file> is required',
    });
    await writeFile(join(dir, 'bad.json'), '{"lineages":{"main":[{"text":1}]}}');
    await expect(startModelServerFrom(['--script', 'bad.json'], () => undefined, dir)).rejects.toMatchObject({
      code: 'SCRIPT_INVALID',
      message: expect.stringContaining('/lineages/main/0/text must be string'),
    });
  });
});
