import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startLoopbackServer, sseFrames, type LoopbackServer } from '../../test/support/loopback-server.js';
import { loadCassette } from '../cassette/load-cassette.js';
import { chatBody } from '../cassette/testing/sample-cassette.js';
import { listFiles, makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { withLineage } from '../lineage/lineage-scope.js';
import { createReplayingFetch } from '../replay/replaying-fetch.js';
import { createRecordingFetch } from './recording-fetch.js';

const KEY = 'sk-live-7c1e55aa90d34f2b';
let server: LoopbackServer | undefined;
let dir: string;

beforeEach(async () => {
  dir = await makeTempDir('cassette-');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await removeTempDir(dir);
});

const chunk = (content: string) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: { content } }],
});

function post(lineage: string, text = 'hello', init: RequestInit = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'x-session-lineage': lineage },
    body: chatBody([{ role: 'user', content: text }]),
    ...init,
  };
}

function streamHeaders(res: ServerResponse, extra: Record<string, string> = {}): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'x-request-id': 'req-1',
    'set-cookie': 'session=abc',
    ...extra,
  });
  res.flushHeaders();
}

describe('recording', () => {
  test('a caller that aborts right after reading [DONE] still leaves a complete recording', async () => {
    server = await startLoopbackServer((_req, res) => {
      streamHeaders(res);
      res.end(sseFrames([chunk('all'), chunk(' of it')]));
    });
    const fetch = createRecordingFetch();
    const connection = new AbortController();
    const response = await fetch(`${server.url}/chat/completions`, { ...post('main'), signal: connection.signal });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('[DONE]')) text += new TextDecoder().decode((await reader.read()).value);
    // What clients do to release the connection once the stream is over.
    connection.abort();

    const cassette = await fetch.cassette();

    const recorded = cassette.calls['main']?.[0]?.response;
    expect(
      recorded && 'events' in recorded ? { events: recorded.events.length, done: recorded.done } : recorded,
    ).toEqual({ events: 2, done: true });
  });

  test('the caller sees the first event before the server has sent the last', async () => {
    let releaseLast!: () => void;
    const lastMayGo = new Promise<void>((resolve) => (releaseLast = resolve));
    let lastSent = false;
    server = await startLoopbackServer(async (_req, res) => {
      streamHeaders(res);
      res.write(sseFrames([chunk('first')], { done: false }));
      await lastMayGo;
      lastSent = true;
      res.end(sseFrames([chunk('last')]));
    });
    const fetch = createRecordingFetch();
    const reader = (await fetch(`${server.url}/chat/completions`, post('main'))).body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"first"');
    expect(lastSent).toBe(false);
    releaseLast();
    while (!(await reader.read()).done);
    const calls = (await fetch.cassette()).calls['main'];
    expect(calls?.[0]?.response).toMatchObject({
      done: true,
      events: [{ data: JSON.stringify(chunk('first')) }, { data: JSON.stringify(chunk('last')) }],
    });
  });

  test('a recording saved and replayed gives the caller the same bytes as the live stream', async () => {
    server = await startLoopbackServer(async (_req, res) => {
      streamHeaders(res);
      res.write(': keep-alive\n\n');
      for (const piece of ['Hel', 'lo', '!']) res.write(sseFrames([chunk(piece)], { done: false }));
      res.end('data: [DONE]\n\n');
    });
    const recording = createRecordingFetch({ secrets: [KEY] });
    const live = await (await recording(`${server.url}/chat/completions`, post('main'))).text();
    await recording.save(dir);
    const replay = createReplayingFetch(await loadCassette(dir));
    const replayed = await (await replay('http://127.0.0.1:1/chat/completions', post('main'))).text();
    expect(replayed).toBe(live);
    replay.assertConsumed();
  });

  test('calls are filed per lineage, from the header or withLineage, and provenance names host and model', async () => {
    server = await startLoopbackServer(async (_req, res) => {
      streamHeaders(res);
      res.end(sseFrames([chunk('ok')]));
    });
    const fetch = createRecordingFetch();
    await (await fetch(`${server.url}/chat/completions`, post('main'))).text();
    const { headers: _drop, ...noHeader } = post('ignored');
    await withLineage('main/call_1', async () => (await fetch(`${server!.url}/chat/completions`, noHeader)).text());
    const cassette = await fetch.cassette();
    expect(Object.keys(cassette.calls).sort()).toEqual(['main', 'main/call_1']);
    expect(cassette.provenance).toMatchObject({ source: 'recorded', host: '127.0.0.1', model: 'deepseek-v4-flash' });
    expect(cassette.provenance.recorder).toMatch(/^nestcast \d+\.\d+\.\d+/);
  });

  test('credentials and non-allow-listed headers never reach the files', async () => {
    server = await startLoopbackServer(async (_req, res) => {
      streamHeaders(res);
      res.end(sseFrames([chunk('ok')]));
    });
    const fetch = createRecordingFetch();
    await (await fetch(`${server.url}/chat/completions`, post('main'))).text();
    await fetch.save(dir);
    const text = await readFile(join(dir, 'calls/main.jsonl'), 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toMatch(/authorization|set-cookie/i);
    expect(JSON.parse(text).response.headers).toEqual({ 'content-type': 'text/event-stream', 'x-request-id': 'req-1' });
  });

  test('an HTTP error is recorded with its status, kept headers and body, and the caller gets it unchanged', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' });
      res.end('{"error":{"message":"rate limited"}}');
    });
    const fetch = createRecordingFetch();
    const response = await fetch(`${server.url}/chat/completions`, post('main'));
    expect(response.status).toBe(429);
    expect(await response.text()).toBe('{"error":{"message":"rate limited"}}');
    expect((await fetch.cassette()).calls['main']?.[0]?.response).toEqual({
      error: {
        kind: 'http',
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '3' },
        body: '{"error":{"message":"rate limited"}}',
      },
    });
  });

  test('a connection dropped mid-stream is recorded as a network failure keeping the events before the cut', async () => {
    server = await startLoopbackServer(async (_req, res) => {
      streamHeaders(res);
      // Cut once the partial frame is handed to the socket: it travels ahead of the close.
      await new Promise<void>((resolve) => res.write(sseFrames([chunk('partial')], { done: false }), () => resolve()));
      res.socket?.destroy();
    });
    const fetch = createRecordingFetch();
    const response = await fetch(`${server.url}/chat/completions`, post('main'));
    await expect(response.text()).rejects.toThrow('terminated');
    const recorded = (await fetch.cassette()).calls['main']?.[0]?.response;
    expect(recorded).toMatchObject({
      error: { kind: 'network', partial: { status: 200, events: [{ data: JSON.stringify(chunk('partial')) }] } },
    });
  });

  test('a refused connection is recorded as a network failure and rethrown to the caller', async () => {
    const closed = await startLoopbackServer(() => undefined);
    await closed.close();
    const fetch = createRecordingFetch();
    await expect(fetch(`${closed.url}/chat/completions`, post('main'))).rejects.toThrow('fetch failed');
    expect((await fetch.cassette()).calls['main']?.[0]?.response).toMatchObject({
      error: { kind: 'network', code: 'ECONNREFUSED' },
    });
  });

  test('a timeout of the caller signal is recorded as a timeout with the events received so far', async () => {
    server = await startLoopbackServer(async (_req, res) => {
      streamHeaders(res);
      res.write(sseFrames([chunk('slow')], { done: false }));
    });
    const fetch = createRecordingFetch();
    const response = await fetch(
      `${server.url}/chat/completions`,
      post('main', 'hello', { signal: AbortSignal.timeout(200) }),
    );
    await expect(response.text()).rejects.toMatchObject({ name: 'TimeoutError' });
    expect((await fetch.cassette()).calls['main']?.[0]?.response).toMatchObject({
      error: { kind: 'timeout', partial: { events: [{ data: JSON.stringify(chunk('slow')) }] } },
    });
  });

  test('a caller abort is recorded as aborted', async () => {
    server = await startLoopbackServer(async (_req, res) => {
      streamHeaders(res);
      res.write(sseFrames([chunk('one')], { done: false }));
    });
    const controller = new AbortController();
    const fetch = createRecordingFetch();
    const reader = (
      await fetch(`${server.url}/chat/completions`, post('main', 'hello', { signal: controller.signal }))
    ).body!.getReader();
    await reader.read();
    controller.abort();
    expect((await fetch.cassette()).calls['main']?.[0]?.response).toMatchObject({ error: { kind: 'aborted' } });
  });
});

describe('secrets', () => {
  test('a key echoed back split across two events is refused with SECRET_IN_RECORDING and nothing is written', async () => {
    server = await startLoopbackServer(async (_req, res) => {
      streamHeaders(res);
      res.end(sseFrames([chunk('your key is '), chunk(KEY.slice(0, 10)), chunk(KEY.slice(10))]));
    });
    const fetch = createRecordingFetch();
    await (await fetch(`${server.url}/chat/completions`, post('main'))).text();
    const error = await fetch.save(join(dir, 'cassette')).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'SECRET_IN_RECORDING',
      message: expect.stringContaining(
        `the authorization header's value appears split across SSE events in session "main", call 1. Nothing was written.`,
      ),
    });
    expect((error as Error).message).not.toContain(KEY);
    expect(await listFiles(dir)).toEqual([]);
  });

  test('a configured secret found in a request body is refused even without a credential header', async () => {
    server = await startLoopbackServer(async (_req, res) => {
      streamHeaders(res);
      res.end(sseFrames([chunk('ok')]));
    });
    const fetch = createRecordingFetch({ secrets: ['hunter2-db-password'] });
    await (
      await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        body: chatBody([{ role: 'user', content: 'password hunter2-db-password' }]),
      })
    ).text();
    await expect(fetch.save(dir)).rejects.toMatchObject({
      code: 'SECRET_IN_RECORDING',
      message: expect.stringContaining('secret #1 appears verbatim in session "main"'),
    });
  });
});

describe('what the real endpoint sees', () => {
  test('the lineage header never reaches the real endpoint; forwardLineage sends the resolved lineage to our own model server', async () => {
    const seen: (string | undefined)[] = [];
    server = await startLoopbackServer((req, res) => {
      seen.push(req.headers['x-session-lineage'] as string | undefined);
      streamHeaders(res);
      res.end(sseFrames([chunk('ok')]));
    });
    const plain = createRecordingFetch();
    await (await plain(`${server.url}/chat/completions`, post('main/call_1'))).text();
    const forwarding = createRecordingFetch({ forwardLineage: true });
    await (await forwarding(`${server.url}/chat/completions`, post('main/call_1'))).text();
    await (
      await withLineage('main/c2', () =>
        forwarding(`${server!.url}/chat/completions`, {
          ...post('x'),
          headers: { 'content-type': 'application/json' },
        }),
      )
    ).text();
    expect(seen).toEqual([undefined, 'main/call_1', 'main/c2']);
    expect(Object.keys((await plain.cassette()).calls)).toEqual(['main/call_1']);
  });

  test('declarative normalisation rules apply before storing and are saved in meta.json; a rule that matched nothing is reported', async () => {
    server = await startLoopbackServer((_req, res) => {
      streamHeaders(res);
      res.end(sseFrames([chunk('ok')]));
    });
    const rules = [{ replace: 'thread-[0-9a-f]+', with: 'thread-<id>' }, { drop: 'metadata.never_there' }];
    const fetch = createRecordingFetch({ normalise: { rules } });
    await (await fetch(`${server.url}/chat/completions`, post('main', 'continue thread-9f3a2b'))).text();
    expect(fetch.report().unusedRules).toMatchObject([{ code: 'UNUSED_RULE', rule: { drop: 'metadata.never_there' } }]);
    await fetch.save(dir);
    const cassette = await loadCassette(dir);
    expect(cassette.normalise).toEqual(rules);
    expect(JSON.stringify(cassette.calls['main']?.[0]?.request)).toContain('continue thread-<id>');
  });

  test('an invalid rule is NORMALISATION_INVALID naming the rule and the syntax; an invalid rule in meta.json is CASSETTE_INVALID', async () => {
    expect(() => createRecordingFetch({ normalise: { rules: [{ replace: '(', with: '' }] } })).toThrow(
      expect.objectContaining({
        code: 'NORMALISATION_INVALID',
        message: expect.stringContaining('rule 1: Invalid regular expression'),
      }),
    );
    expect(() => createRecordingFetch({ normalise: { rules: [{ drop: 'a..b' }] } })).toThrow(
      expect.objectContaining({
        code: 'NORMALISATION_INVALID',
        message: expect.stringContaining('"a..b" is not a path'),
      }),
    );
    server = await startLoopbackServer((_req, res) => {
      streamHeaders(res);
      res.end(sseFrames([chunk('ok')]));
    });
    const fetch = createRecordingFetch({ normalise: { rules: [{ drop: 'temperature' }] } });
    await (await fetch(`${server.url}/chat/completions`, post('main'))).text();
    await fetch.save(dir);
    const { writeFile } = await import('node:fs/promises');
    const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(dir, 'meta.json'), JSON.stringify({ ...meta, normalise: [{ replace: '[', with: '' }] }));
    await expect(loadCassette(dir)).rejects.toMatchObject({
      code: 'CASSETTE_INVALID',
      message: expect.stringContaining('meta.json: normalise:'),
    });
  });
});
