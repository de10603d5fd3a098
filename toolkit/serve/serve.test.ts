import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AuthoredScript } from '../authored/types.js';
import { listFiles, makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { startLoopbackServer, type LoopbackServer } from '../../test/support/loopback-server.js';
import { deferred } from '../../harness/runtime/deferred.js';
import { lineageBaseUrl } from '../../harness/http/serve-endpoint.js';
import { startModelServer, type ModelServer } from './start-model-server.js';

const script: AuthoredScript = {
  model: 'scripted',
  lineages: {
    main: [
      { text: 'Asking the helper.', toolCalls: [{ id: 'call_h', name: 'helper', args: { q: 'sky' } }] },
      { text: 'Blue.' },
    ],
    'main/call_h': [{ text: 'The sky is blue.' }],
  },
};

const servers: (ModelServer | LoopbackServer)[] = [];
let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('serve-');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  await removeTempDir(dir);
});

async function serve(options: Parameters<typeof startModelServer>[0]): Promise<ModelServer> {
  const server = await startModelServer(options);
  servers.push(server);
  return server;
}

/** A parent that calls a helper tool, which is a child session of its own; what each said. */
async function parentAndChild(baseURL: string): Promise<string[]> {
  const client = (url: string) => new OpenAI({ apiKey: 'nestcast-dummy-key', baseURL: url, maxRetries: 0 });
  const parent = client(baseURL);
  const said: string[] = [];
  const first = await parent.chat.completions.create({
    model: 'scripted',
    messages: [{ role: 'user', content: 'Sky?' }],
  });
  const call = first.choices[0]?.message.tool_calls?.[0];
  said.push(first.choices[0]?.message.content ?? '');
  const child = await parent.chat.completions.create({
    model: 'scripted',
    messages: [
      { role: 'system', content: 'You are the helper.' },
      { role: 'user', content: call?.type === 'function' ? call.function.arguments : '' },
    ],
  });
  said.push(child.choices[0]?.message.content ?? '');
  const last = await parent.chat.completions.create({
    model: 'scripted',
    messages: [
      { role: 'user', content: 'Sky?' },
      { role: 'assistant', content: said[0] ?? '', tool_calls: call === undefined ? [] : [call] },
      { role: 'tool', tool_call_id: call?.id ?? '', content: said[1] ?? '' },
    ],
  });
  said.push(last.choices[0]?.message.content ?? '');
  return said;
}

describe('nestcast serve: record, then replay keyless', () => {
  test('records a parent and its child through the endpoint from a scripted upstream, and replays the recording with the same answers', async () => {
    const upstream = await serve({ scripts: script, eventDelay: 0 });
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url });
    const recorded = await parentAndChild(recorder.env['OPENAI_BASE_URL'] as string);
    const summary = await recorder.close();
    expect(summary).toMatchObject({ mode: 'record', ok: true, problems: [] });
    expect(summary.sessions).toEqual([
      { lineage: 'main', consumed: 2, total: 2 },
      { lineage: 'main/call_h', consumed: 1, total: 1 },
    ]);
    expect(await listFiles(join(dir, 'rec'))).toEqual(['calls/main.jsonl', 'calls/main/call_h.jsonl', 'meta.json']);

    const replayer = await serve({ recording: join(dir, 'rec') });
    expect(await parentAndChild(`${replayer.url}/v1`)).toEqual(recorded);
    expect(recorded).toEqual(['Asking the helper.', 'The sky is blue.', 'Blue.']);
    expect(await replayer.close()).toMatchObject({ mode: 'recording', ok: true, problems: [] });
  });

  test('a session named by the /lineage/<name> path prefix is recorded and replayed under that name', async () => {
    const upstream = await serve({ scripts: { lineages: { 'worker/7': [{ text: 'named' }] } }, eventDelay: 0 });
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url, forwardLineage: true });
    const ask = (base: string) =>
      new OpenAI({
        apiKey: 'k',
        baseURL: `${lineageBaseUrl(base, 'worker/7')}/v1`,
        maxRetries: 0,
      }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect((await ask(recorder.url)).choices[0]?.message.content).toBe('named');
    expect((await recorder.close()).sessions).toEqual([{ lineage: 'worker/7', consumed: 1, total: 1 }]);
    const replayer = await serve({ recording: join(dir, 'rec') });
    expect((await ask(replayer.url)).choices[0]?.message.content).toBe('named');
    expect((await replayer.close()).ok).toBe(true);
  });

  test('a replayed call that differs answers 422 REQUEST_MISMATCH at the first divergence, and the summary is not ok', async () => {
    const upstream = await serve({ scripts: script, eventDelay: 0 });
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url });
    await parentAndChild(`${recorder.url}/v1`);
    await recorder.close();
    const replayer = await serve({ recording: join(dir, 'rec') });
    const client = new OpenAI({ apiKey: 'k', baseURL: `${replayer.url}/v1`, maxRetries: 0 });
    const failure = await client.chat.completions
      .create({ model: 'scripted', messages: [{ role: 'user', content: 'Sea?' }] })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 422, code: 'REQUEST_MISMATCH' });
    expect((failure as Error).message).toContain('messages[0].content');
    const summary = await replayer.close();
    expect(summary.ok).toBe(false);
    expect(summary.problems.map((problem) => problem.code)).toEqual(['REQUEST_MISMATCH', 'UNCONSUMED_CALLS']);
  });

  test('recorded calls never asked for make the summary UNCONSUMED_CALLS, listing each session', async () => {
    const upstream = await serve({ scripts: script, eventDelay: 0 });
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url });
    await parentAndChild(`${recorder.url}/v1`);
    await recorder.close();
    const replayer = await serve({ recording: join(dir, 'rec') });
    const summary = await replayer.close();
    expect(summary.problems).toHaveLength(1);
    expect(summary.problems[0]).toMatchObject({
      code: 'UNCONSUMED_CALLS',
      message: expect.stringContaining('main/call_h: 0/1'),
    });
  });
});

describe('nestcast serve: a replayed answer is written whole', () => {
  test('an answer whose events are all due at once goes out as two chunked frames, the first event with the head and the rest joined, not one per event', async () => {
    const words = Array.from({ length: 20 }, (_, i) => `w${i} `).join('');
    const server = await serve({
      scripts: { model: 'scripted', lineages: { main: [{ text: words }] } },
      eventDelay: 0,
    });
    const { frames, body } = await rawChunkedPost(
      server.url,
      '/v1/chat/completions',
      JSON.stringify({ model: 'scripted', messages: [{ role: 'user', content: 'Go' }], stream: true }),
    );
    const events = body.split('\n\n').filter((event) => event.startsWith('data: '));
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(events.length).toBeGreaterThan(3);
    expect(frames).toBe(2);
    expect((await server.close()).ok).toBe(true);
  });

  test('a recorded stream replayed with instant timing goes out in one chunked frame, byte for byte as recorded', async () => {
    const words = Array.from({ length: 20 }, (_, i) => `w${i} `).join('');
    const upstream = await serve({
      scripts: { model: 'scripted', lineages: { main: [{ text: words }] } },
      eventDelay: 0,
    });
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url });
    const request = JSON.stringify({ model: 'scripted', messages: [{ role: 'user', content: 'Go' }], stream: true });
    const recorded = await postText(recorder.url, request);
    expect((await recorder.close()).ok).toBe(true);
    const replayer = await serve({ recording: join(dir, 'rec') });
    const replayed = await rawChunkedPost(replayer.url, '/v1/chat/completions', request);
    expect(replayed.body).toBe(recorded);
    expect(replayed.body.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(replayed.frames).toBe(1);
    expect((await replayer.close()).ok).toBe(true);
  });

  test('a recorded stream that ended without [DONE] is replayed whole without it', async () => {
    const events = ['{"choices":[{"delta":{"content":"a"}}]}', '{"choices":[{"delta":{"content":"b"}}]}'];
    const upstream = await startLoopbackServer((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of events) res.write(`data: ${event}\n\n`);
      res.end();
    });
    servers.push(upstream);
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url });
    const request = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Go' }], stream: true });
    await postText(recorder.url, request);
    expect((await recorder.close()).ok).toBe(true);
    const replayer = await serve({ recording: join(dir, 'rec') });
    const replayed = await rawChunkedPost(replayer.url, '/v1/chat/completions', request);
    expect(replayed).toEqual({ frames: 1, body: events.map((event) => `data: ${event}\n\n`).join('') });
    expect((await replayer.close()).ok).toBe(true);
  });
});

describe('nestcast serve: fresh state per test', () => {
  test('after a reset the same conversation is served from the start as session main again, and the ended round still counts', async () => {
    const server = await serve({ scripts: { lineages: { main: [{ text: 'first' }] } }, eventDelay: 0 });
    const ask = () =>
      fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      });
    expect((await (await ask()).json()) as unknown).toMatchObject({ choices: [{ message: { content: 'first' } }] });
    const reset = await fetch(`${server.url}/__nestcast/reset`, { method: 'POST' });
    expect(await reset.json()).toEqual({
      reset: true,
      ended: { sessions: [{ lineage: 'main', consumed: 1, total: 1 }], problems: [] },
    });
    expect((await (await ask()).json()) as unknown).toMatchObject({ choices: [{ message: { content: 'first' } }] });
    expect(server.report().sessions).toEqual([{ lineage: 'main', consumed: 1, total: 1 }]);
    server.reset();
    // The round just ended was consumed; the new one was not asked anything.
    expect((await server.close()).problems.map((problem) => problem.code)).toEqual(['UNCONSUMED_CALLS']);
  });

  test('record mode refuses a reset: a recording is one whole run', async () => {
    const upstream = await serve({ scripts: script, eventDelay: 0 });
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url });
    const reset = await fetch(`${recorder.url}/__nestcast/reset`, { method: 'POST' });
    expect(reset.status).toBe(409);
    expect(await reset.json()).toMatchObject({ error: { code: 'SERVE_MODE_MISMATCH' } });
    expect(() => recorder.add('main', { text: 'x' })).toThrow(expect.objectContaining({ code: 'SERVE_MODE_MISMATCH' }));
  });
});

/** One streamed chat-completions call through the openai SDK at `url`, the stream not yet read. */
function streamedCount(url: string) {
  return new OpenAI({ apiKey: 'k', baseURL: `${url}/v1`, maxRetries: 0 }).chat.completions.create({
    model: 'm',
    messages: [{ role: 'user', content: 'count' }],
    stream: true,
  });
}

describe('nestcast serve: record mode passes the stream through and keeps the key out', () => {
  test('each chunk reaches the caller while the upstream is still streaming', async () => {
    let firstChunkSeen!: () => void;
    const seen = new Promise<void>((resolve) => (firstChunkSeen = resolve));
    const upstream = await startLoopbackServer(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify(chunk('one'))}\n\n`);
      // The upstream finishes only once the caller has read the first chunk: a buffering endpoint never gets here.
      await seen;
      response.end(`data: ${JSON.stringify(chunk(' two'))}\n\ndata: [DONE]\n\n`);
    });
    servers.push(upstream);
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url });
    const stream = await streamedCount(recorder.url);
    let text = '';
    for await (const part of stream) {
      text += part.choices[0]?.delta.content ?? '';
      firstChunkSeen();
    }
    expect(text).toBe('one two');
    expect((await recorder.close()).ok).toBe(true);
  });

  test('a chunk that arrives after the caller has read the one before it reaches the caller too, before the upstream sends the next', async () => {
    const seen = [deferred<void>(), deferred<void>()];
    const upstream = await startLoopbackServer(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify(chunk('one'))}\n\n`);
      // Each next chunk exists only once the caller has read the previous one: an endpoint that holds any back never gets to the end.
      await seen[0]?.promise;
      response.write(`data: ${JSON.stringify(chunk(' two'))}\n\n`);
      await seen[1]?.promise;
      response.end(`data: ${JSON.stringify(chunk(' three'))}\n\ndata: [DONE]\n\n`);
    });
    servers.push(upstream);
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url });
    const stream = await streamedCount(recorder.url);
    let text = '';
    for await (const part of stream) {
      text += part.choices[0]?.delta.content ?? '';
      seen[text.split(' ').length - 1]?.resolve();
    }
    expect(text).toBe('one two three');
    expect((await recorder.close()).ok).toBe(true);
  });

  test('the caller gets the status and headers while the upstream has sent them and no event yet', async () => {
    let headersSeen!: () => void;
    const seen = new Promise<void>((resolve) => (headersSeen = resolve));
    const upstream = await startLoopbackServer(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      // The model "thinks" until the caller has the head: an endpoint holding the head back for the first event never gets here.
      await seen;
      response.end(`data: ${JSON.stringify(chunk('done'))}\n\ndata: [DONE]\n\n`);
    });
    servers.push(upstream);
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url });
    const response = await fetch(`${recorder.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'think' }], stream: true }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    headersSeen();
    expect(await response.text()).toContain('"done"');
    expect((await recorder.close()).ok).toBe(true);
  });

  test('the real key replaces the caller’s dummy key on the way out and is written nowhere', async () => {
    const key = 'sk-real-0123456789abcdef';
    const upstream = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(completion('fine')));
    });
    servers.push(upstream);
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url, apiKey: key });
    await new OpenAI({
      apiKey: 'nestcast-dummy-key',
      baseURL: `${recorder.url}/v1`,
      maxRetries: 0,
    }).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(upstream.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
    expect((await recorder.close()).ok).toBe(true);
    for (const file of await listFiles(join(dir, 'rec')))
      expect(await readFile(join(dir, 'rec', file), 'utf8')).not.toContain(key);
  });

  test('an upstream that echoes the key makes the save refuse with SECRET_IN_RECORDING, writing nothing', async () => {
    const key = 'sk-real-0123456789abcdef';
    const upstream = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(completion(`your key is ${key}`)));
    });
    servers.push(upstream);
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url, apiKey: key });
    await fetch(`${recorder.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer nestcast-dummy-key' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const summary = await recorder.close();
    expect(summary).toMatchObject({ ok: false, problems: [{ code: 'SECRET_IN_RECORDING' }] });
    expect(await listFiles(dir)).toEqual([]);
  });
});

describe('nestcast serve: bad input gets typed errors', () => {
  test('an unknown path is a 404 whose JSON body says which paths are served', async () => {
    const server = await serve({ scripts: script });
    const response = await fetch(`${server.url}/v1/models`);
    expect(response.status).toBe(404);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('UNKNOWN_ROUTE');
    expect(error.message).toContain('does not serve GET /v1/models');
    expect(error.message).toContain('POST <base URL>/chat/completions (OpenAI chat completions)');
    expect((await fetch(`${server.url}/lineage/`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  test('a model call whose body is not JSON gets BODY_NOT_JSON in the API’s error shape, and is filed nowhere', async () => {
    const server = await serve({ scripts: script });
    const response = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: 'not json' });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      error: { code: 'BODY_NOT_JSON', message: expect.stringContaining('"not json"') },
    });
    expect(server.report().sessions.every((session) => session.consumed === 0)).toBe(true);
  });

  test('an upstream that is down answers UPSTREAM_UNREACHABLE, and nothing is saved', async () => {
    const gone = await startModelServer({ scripts: script });
    await gone.close();
    const recorder = await serve({ record: join(dir, 'rec'), upstream: gone.url });
    const response = await fetch(`${recorder.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { code: 'UPSTREAM_UNREACHABLE' } });
    const summary = await recorder.close();
    expect(summary).toMatchObject({ ok: false, problems: [{ code: 'UPSTREAM_UNREACHABLE' }] });
    expect(summary.saved).toBeUndefined();
    expect(await listFiles(dir)).toEqual([]);
  });

  test('an upstream answering 401 passes its answer through, and nothing is saved (UPSTREAM_UNAUTHORIZED)', async () => {
    const upstream = await serve({
      scripts: { lineages: { main: [{ httpError: { status: 401, body: { error: { message: 'bad key' } } } }] } },
    });
    const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url });
    const response = await fetch(`${recorder.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { message: 'bad key' } });
    expect(await recorder.close()).toMatchObject({ ok: false, problems: [{ code: 'UPSTREAM_UNAUTHORIZED' }] });
    expect(await listFiles(dir)).toEqual([]);
  });

  test('a record run that no call reached saves nothing and says NOTHING_RECORDED', async () => {
    const recorder = await serve({ record: join(dir, 'rec'), upstream: 'http://127.0.0.1:9' });
    expect(await recorder.close()).toMatchObject({ ok: false, problems: [{ code: 'NOTHING_RECORDED' }] });
    expect(await listFiles(dir)).toEqual([]);
  });

  test('a port in use is PORT_IN_USE naming the port', async () => {
    const first = await serve({ scripts: script });
    const port = Number(new URL(first.url).port);
    await expect(startModelServer({ scripts: script, port })).rejects.toMatchObject({
      code: 'PORT_IN_USE',
      message: expect.stringContaining(`Port ${port} on 127.0.0.1 is already in use`),
    });
  });

  test('options naming no mode or two modes are SERVE_OPTIONS_INVALID', async () => {
    await expect(startModelServer({} as never)).rejects.toMatchObject({ code: 'SERVE_OPTIONS_INVALID' });
    await expect(startModelServer({ scripts: script, recording: dir } as never)).rejects.toMatchObject({
      code: 'SERVE_OPTIONS_INVALID',
      message: expect.stringContaining('got scripts, recording'),
    });
  });

  test('an option the mode does not read is SERVE_OPTIONS_INVALID naming the one meant: replay never runs without the rules a misspelt normalise held', async () => {
    await expect(startModelServer({ recording: dir, normalize: { rules: [] } } as never)).rejects.toMatchObject({
      code: 'SERVE_OPTIONS_INVALID',
      message: expect.stringMatching(
        /^startModelServer \(recording mode\): unknown option "normalize" \(did you mean "normalise"\?\); the options are host, port, normalise, recording, mode, timing, recordHint\.$/,
      ),
    });
    // What one mode reads is unknown to another.
    await expect(startModelServer({ scripts: script, timing: 'instant' } as never)).rejects.toMatchObject({
      code: 'SERVE_OPTIONS_INVALID',
      message: expect.stringContaining('startModelServer (script mode): unknown option "timing"'),
    });
  });

  test('a recording folder that does not exist is CASSETTE_NOT_FOUND naming the record command', async () => {
    await expect(startModelServer({ recording: join(dir, 'none') })).rejects.toMatchObject({
      code: 'CASSETTE_NOT_FOUND',
      message: expect.stringContaining(`nestcast serve --record ${join(dir, 'none')} --upstream`),
    });
  });
});

function chunk(content: string): unknown {
  return {
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  };
}

function completion(content: string): unknown {
  return {
    id: 'c1',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  };
}

/** A chat-completions POST through fetch, its answer read as text. */
async function postText(base: string, body: string): Promise<string> {
  const response = await fetch(`${base}/v1/chat/completions`, { method: 'POST', body });
  return response.text();
}

/**
 * A POST over a raw socket, read to the close: how many chunked-encoding frames the body came in
 * (one per write of the server), and the body they carry.
 */
async function rawChunkedPost(base: string, path: string, body: string): Promise<{ frames: number; body: string }> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  const parts: Buffer[] = [];
  socket.on('data', (part: Buffer) => parts.push(part));
  const closed = once(socket, 'close');
  socket.end(
    `POST ${path} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  await closed;
  const raw = Buffer.concat(parts).toString('utf8');
  const headEnd = raw.indexOf('\r\n\r\n');
  expect(raw.slice(0, headEnd).toLowerCase()).toContain('transfer-encoding: chunked');
  let rest = raw.slice(headEnd + 4);
  let frames = 0;
  let text = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (size === 0) break;
    // The events are ASCII, so a frame's size in bytes is its length in characters.
    text += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
    frames++;
  }
  return { frames, body: text };
}
