import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import FetchAdapterModule from '@pollyjs/adapter-fetch';
import { Polly } from '@pollyjs/core';
import FsPersisterModule from '@pollyjs/persister-fs';
import { Ajv } from 'ajv';
import nock from 'nock';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../harness/llm/openai-compatible/openai-compatible-adapter.js';
import type { LlmAdapter, LlmEvent, LlmRequest } from '../../harness/llm/types.js';
import { listFiles, makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { AuthoredScript } from '../authored/types.js';
import { loadCassette } from '../cassette/load-cassette.js';
import { main } from '../cli/main.js';
import type { CliIo } from '../cli/io.js';
import { startModelServer, type ModelServer } from '../model-server/model-server.js';
import { createReplayingFetch } from '../replay/replaying-fetch.js';
import { pollyMatchRequestsBy } from './polly-identity.js';

// Polly's packages are CommonJS typed as ES modules with a default export (see bench/peers/polly-fetch.ts).
const FetchAdapter = FetchAdapterModule as unknown as typeof FetchAdapterModule.default;
const FsPersister = FsPersisterModule as unknown as typeof FsPersisterModule.default;
Polly.register(FetchAdapter);
Polly.register(FsPersister);

const KEY = 'sk-interop-4f7c2a9b1e';

/** A parent that delegates once: main asks a tool, its child answers, main finishes. */
const script = {
  lineages: {
    main: [
      { text: 'Let me ask.', toolCalls: [{ id: 'call_poet', name: 'ask_poet', args: { topic: 'rain' } }] },
      { text: 'The poet says: wet.' },
    ],
    'main/call_poet': [{ reasoning: 'Short.', text: 'Rain falls, wet.' }],
  },
};

const tools = [
  {
    name: 'ask_poet',
    description: 'Ask the poet',
    parameters: { type: 'object', properties: { topic: { type: 'string' } } },
  },
];

/** The conversation, call by call, as the harness would make it: [lineage, request]. */
const conversation: readonly (readonly [string, LlmRequest])[] = [
  ['main', { system: 'You delegate.', messages: [{ role: 'user', content: 'Ask the poet about rain.' }], tools }],
  ['main/call_poet', { system: 'You are a poet.', messages: [{ role: 'user', content: 'rain' }] }],
  [
    'main',
    {
      system: 'You delegate.',
      tools,
      messages: [
        { role: 'user', content: 'Ask the poet about rain.' },
        {
          role: 'assistant',
          content: 'Let me ask.',
          toolCalls: [{ id: 'call_poet', name: 'ask_poet', arguments: '{"topic":"rain"}' }],
        },
        { role: 'tool', toolCallId: 'call_poet', content: 'Rain falls, wet.' },
      ],
    },
  ],
];

async function runConversation(adapter: LlmAdapter): Promise<LlmEvent[][]> {
  const results: LlmEvent[][] = [];
  for (const [lineage, request] of conversation) {
    const events: LlmEvent[] = [];
    for await (const event of adapter.stream(request, { lineage })) events.push(event);
    results.push(events);
  }
  return results;
}

function cli(cwd: string): { io: CliIo; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t) => void (out += t), stderr: (t) => void (err += t), env: {}, cwd, color: false },
    out: () => out,
    err: () => err,
  };
}

async function replayedEvents(dir: string, baseUrl: string): Promise<LlmEvent[][]> {
  const replaying = createReplayingFetch(await loadCassette(dir));
  const events = await runConversation(
    createOpenAICompatibleAdapter({ baseUrl, fetch: replaying, model: 'deepseek-v4-flash' }),
  );
  replaying.assertConsumed();
  return events;
}

async function allText(dir: string): Promise<string> {
  const files = await listFiles(dir);
  return (await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')))).join('\n');
}

/** The conversation against a fresh model server (each serves a script once), through `fetch` (default: the global one, as interceptors patch it). */
async function talkToModelServer(
  fetch?: typeof globalThis.fetch,
  scripts: AuthoredScript = script,
): Promise<LlmEvent[][]> {
  const server: ModelServer = await startModelServer({ scripts, eventDelay: 0 });
  try {
    return await runConversation(
      createOpenAICompatibleAdapter({
        baseUrl: server.url,
        apiKey: KEY,
        model: 'deepseek-v4-flash',
        ...(fetch ? { fetch } : {}),
      }),
    );
  } finally {
    await server.close();
  }
}

let root: string;
let live: LlmEvent[][];

beforeAll(async () => {
  root = await makeTempDir('interop-');
  live = await talkToModelServer();
});

afterAll(async () => {
  await removeTempDir(root);
});

afterEach(() => {
  nock.recorder.clear();
  nock.restore();
  nock.cleanAll();
  nock.enableNetConnect();
});

describe('nestcast import', () => {
  test('a fixture written by nock 14’s own recorder imports into a cassette that replays through the adapter with the same events', async () => {
    nock.recorder.rec({ output_objects: true, dont_print: true, enable_reqheaders_recording: true });
    const recorded = await talkToModelServer();
    const fixture = join(root, 'nock-fixture.json');
    await writeFile(fixture, JSON.stringify(nock.recorder.play()));
    expect(recorded).toEqual(live);

    const to = join(root, 'from-nock');
    const { io, out } = cli(root);
    expect(await main(['import', fixture, '--from', 'nock', '--to', to], io)).toBe(0);
    expect(out()).toContain('imported 3 model calls');
    const meta = JSON.parse(await readFile(join(to, 'meta.json'), 'utf8')) as {
      provenance: { importedFrom: string };
      lineages: string[];
    };
    expect(meta.provenance.importedFrom).toBe('nock');
    expect(meta.lineages).toEqual(['main', 'main/call_poet']);
    // nock kept the authorization header; the cassette must not.
    expect(await allText(to)).not.toContain(KEY);
    expect(await replayedEvents(to, 'http://anywhere.invalid')).toEqual(live);
  });

  test('a recording made by Polly.js’s own record mode imports into a cassette that replays with the same events', async () => {
    const recordingsDir = join(root, 'polly-recordings');
    const context = { fetch: globalThis.fetch, Request, Response, Headers };
    const polly = new Polly('interop-import', {
      mode: 'record',
      adapters: ['fetch'],
      adapterOptions: { fetch: { context } },
      persister: 'fs',
      persisterOptions: { fs: { recordingsDir } },
      logLevel: 'silent',
    });
    const recorded = await talkToModelServer((input, init) => context.fetch(input, init));
    await polly.stop();
    expect(recorded).toEqual(live);
    const har = join(recordingsDir, polly.recordingId, 'recording.har');

    const to = join(root, 'from-polly');
    const { io } = cli(root);
    expect(await main(['import', har, '--from', 'polly', '--to', to], io)).toBe(0);
    expect((await loadCassette(to)).provenance.importedFrom).toBe('polly');
    expect(await allText(to)).not.toContain(KEY);
    expect(await replayedEvents(to, 'http://anywhere.invalid')).toEqual(live);
  });

  test('a fixture of an openai-SDK loop that names no session is filed by the sessions derived from its content', async () => {
    const server = await startModelServer({ scripts: script, eventDelay: 0 });
    let recorded: string[];
    try {
      nock.recorder.rec({ output_objects: true, dont_print: true });
      recorded = await sdkResults(globalThis.fetch, `${server.url}/v1`, { header: false });
    } finally {
      await server.close();
    }
    const fixture = join(root, 'sdk-fixture.json');
    await writeFile(fixture, JSON.stringify(nock.recorder.play()));

    const to = join(root, 'from-sdk');
    const { io, out } = cli(root);
    expect(await main(['import', fixture, '--from', 'nock', '--to', to], io)).toBe(0);
    expect(out()).toContain('main/call_poet  1 call');
    const cassette = await loadCassette(to);
    expect(Object.keys(cassette.calls).sort()).toEqual(['main', 'main/call_poet']);
    const replaying = createReplayingFetch(cassette);
    expect(await sdkResults(replaying, 'http://anywhere.invalid/v1', { header: false })).toEqual(recorded);
    replaying.assertConsumed();
  });

  test('requests that are not chat completions are skipped and listed', async () => {
    const fixture = join(root, 'mixed.har');
    const entry = (method: string, url: string, body: string, contentType: string, text: string) => ({
      request: { method, url, headers: [], postData: { text: body } },
      response: { status: 200, headers: [{ name: 'content-type', value: contentType }], content: { text } },
    });
    const completion = JSON.stringify({
      id: 'x',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
    });
    await writeFile(
      fixture,
      JSON.stringify({
        log: {
          entries: [
            entry('GET', 'https://api.example.com/v1/models', '', 'application/json', '{"data":[]}'),
            entry(
              'POST',
              'https://api.example.com/v1/chat/completions',
              '{"model":"m","messages":[{"role":"user","content":"hi"}]}',
              'application/json',
              completion,
            ),
          ],
        },
      }),
    );
    const to = join(root, 'from-har');
    const { io, out } = cli(root);
    expect(await main(['import', fixture, '--from', 'har', '--to', to], io)).toBe(0);
    expect(out()).toContain('#0 GET https://api.example.com/v1/models');
    const cassette = await loadCassette(to);
    expect(cassette.calls['main']?.[0]?.response).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: completion,
    });
  });

  test.each([
    ['nock', '{"scope":"x"}', 'IMPORT_INVALID', 'a nock fixture is a JSON array'],
    [
      'nock',
      '[{"scope":"http://a.test","path":"/v1/chat/completions","status":"ok"}]',
      'IMPORT_INVALID',
      'definition 0: /status must be integer',
    ],
    [
      'har',
      '{"log":{"entries":[{"request":{"method":"POST","url":"https://a.test/v1/chat/completions","headers":[]},"response":{"status":200,"headers":[]}}]}}',
      'IMPORT_INVALID',
      "entry 0: /response must have required property 'content'",
    ],
    ['polly', '{"log":{}}', 'IMPORT_INVALID', '/log/entries is missing'],
    ['har', 'not json', 'IMPORT_INVALID', 'not JSON'],
    ['har', '{"log":{"entries":[]}}', 'IMPORT_EMPTY', 'no model call (POST …/chat/completions'],
  ])(
    'a bad %s fixture (%s) is %s naming the entry and field, and nothing is written',
    async (from, text, code, words) => {
      const fixture = join(root, `bad-${Math.random().toString(36).slice(2)}.json`);
      await writeFile(fixture, text);
      const to = join(root, `never-${Math.random().toString(36).slice(2)}`);
      const { io, err } = cli(root);
      expect(await main(['import', fixture, '--from', from, '--to', to], io)).toBe(1);
      expect(err()).toContain(`${code}: `);
      expect(err()).toContain(words);
      await expect(listFiles(to)).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );

  test('a fixture whose model answer holds the credential it was recorded with is refused whole', async () => {
    const leaked = { ...script, lineages: { ...script.lineages, 'main/call_poet': [{ text: `my key is ${KEY}` }] } };
    {
      nock.recorder.rec({ output_objects: true, dont_print: true, enable_reqheaders_recording: true });
      await talkToModelServer(undefined, leaked);
      const fixture = join(root, 'leaky.json');
      await writeFile(fixture, JSON.stringify(nock.recorder.play()));
      const to = join(root, 'leaky');
      const { io, err } = cli(root);
      expect(await main(['import', fixture, '--from', 'nock', '--to', to], io)).toBe(1);
      expect(err()).toContain('SECRET_IN_RECORDING');
      expect(err()).not.toContain(KEY);
      await expect(listFiles(to)).rejects.toMatchObject({ code: 'ENOENT' });
    }
  });
});

describe('nestcast export', () => {
  /** A cassette of the conversation, recorded by nestcast itself. */
  async function nestcastRecording(): Promise<string> {
    const dir = join(root, 'own');
    const { io } = cli(root);
    nock.recorder.rec({ output_objects: true, dont_print: true, enable_reqheaders_recording: true });
    await talkToModelServer();
    const fixture = join(root, 'own-fixture.json');
    await writeFile(fixture, JSON.stringify(nock.recorder.play()));
    nock.recorder.clear();
    nock.restore();
    expect(await main(['import', fixture, '--from', 'nock', '--to', dir], io)).toBe(0);
    return dir;
  }

  test('an exported nock fixture is served by nock.define() to the openai SDK exactly as nestcast replays it', async () => {
    const dir = await nestcastRecording();
    const expected = await sdkResults(createReplayingFetch(await loadCassette(dir)), 'http://model-server.invalid/v1');

    const file = join(root, 'exported.nock.json');
    const { io, out } = cli(root);
    expect(await main(['export', dir, '--to', 'nock', file, '--base-url', 'http://exported.invalid/v1'], io)).toBe(0);
    expect(out()).toContain('exported 3 model calls');
    expect(out()).toContain('chunk boundaries');
    if (!nock.isActive()) nock.activate();
    nock.disableNetConnect();
    const scopes = nock.define(JSON.parse(await readFile(file, 'utf8')) as nock.Definition[]);
    expect(await sdkResults(globalThis.fetch, 'http://exported.invalid/v1')).toEqual(expected);
    for (const scope of scopes) expect(scope.isDone()).toBe(true);
  });

  test('export takes a scenario name as inspect and show do: recordings/<name> under --recordings', async () => {
    const dir = await nestcastRecording();
    const byFolder = join(root, 'by-folder.nock.json');
    const byName = join(root, 'by-name.nock.json');
    expect(await main(['export', dir, '--to', 'nock', byFolder], cli(root).io)).toBe(0);
    const { io, out } = cli(root);
    expect(await main(['export', 'own', '--recordings', '.', '--to', 'nock', byName], io)).toBe(0);
    expect(out()).toContain('exported 3 model calls');
    expect(await readFile(byName, 'utf8')).toBe(await readFile(byFolder, 'utf8'));
  });

  test('an exported HAR validates against the HAR 1.2 schema and Polly.js serves it from its fs persister to the openai SDK', async () => {
    const dir = await nestcastRecording();
    const expected = await sdkResults(createReplayingFetch(await loadCassette(dir)), 'http://model-server.invalid/v1');

    const recordingsDir = join(root, 'polly-replay');
    const offline: typeof globalThis.fetch = () => Promise.reject(new Error('Polly replay reached the network'));
    const context = { fetch: offline, Request, Response, Headers };
    const polly = new Polly('interop-export', {
      mode: 'replay',
      recordIfMissing: false,
      adapters: ['fetch'],
      adapterOptions: { fetch: { context } },
      persister: 'fs',
      persisterOptions: { fs: { recordingsDir } },
      matchRequestsBy: pollyMatchRequestsBy,
      logLevel: 'silent',
    });
    const file = join(recordingsDir, polly.recordingId, 'recording.har');
    await mkdir(join(recordingsDir, polly.recordingId), { recursive: true });
    const { io } = cli(root);
    expect(await main(['export', dir, '--to', 'har', file, '--base-url', 'http://exported.invalid/v1'], io)).toBe(0);
    expect(validateHar(JSON.parse(await readFile(file, 'utf8')))).toEqual([]);
    try {
      expect(await sdkResults((input, init) => context.fetch(input, init), 'http://exported.invalid/v1')).toEqual(
        expected,
      );
    } finally {
      await polly.stop();
    }
  });

  test('calls a flat fixture cannot hold are left out and named', async () => {
    const dir = join(root, 'with-network-failure');
    const failing = await startModelServer({
      scripts: { lineages: { main: [{ networkError: 'reset-before-response' as const }] } },
      eventDelay: 0,
    });
    try {
      const { createRecordingFetch } = await import('../record/recording-fetch.js');
      const recording = createRecordingFetch();
      await expect(
        runConversation(
          createOpenAICompatibleAdapter({ baseUrl: failing.url, fetch: recording, model: 'deepseek-v4-flash' }),
        ),
      ).rejects.toThrow();
      await recording.save(dir);
    } finally {
      await failing.close();
    }
    const { io, out } = cli(root);
    expect(await main(['export', dir, '--to', 'har', join(root, 'failure.har')], io)).toBe(0);
    expect(out()).toContain('left out: session "main" call 1: a network failure has no HTTP answer to replay');
  });
});

/** What the openai SDK makes of the conversation's calls through `fetch`. */
async function sdkResults(
  fetch: typeof globalThis.fetch,
  baseURL: string,
  options: { header: boolean } = { header: true },
): Promise<string[]> {
  const client = new OpenAI({ apiKey: 'unused', baseURL, fetch, maxRetries: 0 });
  const texts: string[] = [];
  for (const [lineage, request] of conversation) {
    const messages = [
      { role: 'system' as const, content: request.system ?? '' },
      ...request.messages.map(openaiMessage),
    ];
    const stream = await client.chat.completions.create(
      {
        model: 'deepseek-v4-flash',
        messages,
        stream: true,
        stream_options: { include_usage: true },
        ...(request.tools
          ? { tools: request.tools.map((tool) => ({ type: 'function' as const, function: tool })) }
          : {}),
      },
      options.header ? { headers: { 'x-session-lineage': lineage } } : {},
    );
    let text = '';
    for await (const chunk of stream) text += JSON.stringify(chunk.choices[0]?.delta ?? chunk.usage ?? null);
    texts.push(text);
  }
  return texts;
}

function openaiMessage(message: LlmRequest['messages'][number]): OpenAI.ChatCompletionMessageParam {
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  if (message.role === 'user') return { role: 'user', content: message.content };
  return {
    role: 'assistant',
    content: message.content,
    ...(message.toolCalls
      ? {
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        }
      : {}),
  };
}

/** ajv over the `har-schema` package's HAR 1.2 schemas (draft-06). */
function validateHar(value: unknown): string[] {
  const require = createRequire(import.meta.url);
  const schemas = require('har-schema') as Record<string, object>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  const validate = ajv.getSchema('har.json#');
  if (!validate) throw new Error('har-schema has no har.json#');
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}
