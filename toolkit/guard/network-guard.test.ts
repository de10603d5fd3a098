import { request as httpRequest } from 'node:http';
import { bypass, http, HttpResponse, passthrough } from 'msw';
import OpenAI from 'openai';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { LoopbackServer } from '../../test/support/loopback-server.js';
import { startRealApi, streamedText } from '../../test/support/real-api.js';
import { compileScript } from '../authored/compile-script.js';
import { withLineage } from '../lineage/lineage-scope.js';
import { createReplayingFetch } from '../replay/replaying-fetch.js';
import { installNetworkGuard, type NetworkGuard } from './network-guard.js';
import { scrubKeyLikeEnv } from './scrub-key-env.js';
import { serveCassetteWithMsw } from './serve-cassette-with-msw.js';

const cassette = () =>
  compileScript({ lineages: { main: [{ text: 'Hello from the cassette.' }], 'main/call_1': [{ text: 'child' }] } });

let guard: NetworkGuard | undefined;
let realApi: LoopbackServer | undefined;
afterEach(async () => {
  guard?.close();
  guard = undefined;
  await realApi?.close();
  realApi = undefined;
  vi.unstubAllEnvs();
});

describe('network guard', () => {
  test('a request the cassette did not serve fails, never arrives, and fails the run even when the caller caught it and retried', async () => {
    realApi = await startRealApi();
    guard = installNetworkGuard();
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(
        fetch(`${realApi.url}/chat/completions?key=sk-in-query`, { method: 'POST', body: '{}' }),
      ).rejects.toThrow();
    }
    expect(realApi.requests).toHaveLength(0);
    expect(() => guard!.assertNoEscapes()).toThrow(
      expect.objectContaining({
        code: 'NETWORK_ESCAPE',
        message:
          `2 requests tried to reach the network during replay, which replay mode forbids (query strings omitted):\n` +
          `  POST ${realApi.url}/chat/completions\n  POST ${realApi.url}/chat/completions\n` +
          'Each was failed as a network error. Serve model calls from the cassette: inject the replaying fetch into the client ' +
          '(createReplayingFetch), or serve the cassette through msw (serveCassetteWithMsw) for code whose fetch cannot be injected. ' +
          'To let a host through on purpose, pass installNetworkGuard({ allow }).',
      }),
    );
  });

  test('node:http requests are caught too, also through a named ESM import', async () => {
    realApi = await startRealApi();
    guard = installNetworkGuard();
    const failed = await new Promise<boolean>((resolve) => {
      const req = httpRequest(`${realApi!.url}/direct`, { method: 'GET' }, () => resolve(false));
      req.on('error', () => resolve(true));
      req.end();
    });
    expect(failed).toBe(true);
    expect(realApi.requests).toHaveLength(0);
    expect(guard.escapes()).toEqual([{ method: 'GET', url: `${realApi.url}/direct` }]);
  });

  test('an option it does not read is refused before anything is patched, naming the one meant', () => {
    const fetchBefore = globalThis.fetch;
    expect(() => installNetworkGuard({ handler: [] } as never)).toThrow(
      expect.objectContaining({
        code: 'OPTIONS_INVALID',
        message:
          'installNetworkGuard: unknown option "handler" (did you mean "handlers"?); the options are allow, handlers.',
      }),
    );
    expect(globalThis.fetch).toBe(fetchBefore);
  });

  test('allow lets chosen hosts through', async () => {
    realApi = await startRealApi();
    guard = installNetworkGuard({ allow: (url) => url.hostname === '127.0.0.1' });
    expect((await fetch(`${realApi.url}/chat/completions`, { method: 'POST', body: '{}' })).status).toBe(200);
    guard.assertNoEscapes();
  });

  test('with an API key in the environment, replay through the injected fetch works and no request leaves', async () => {
    vi.stubEnv('DEEPSEEK_API_KEY', 'sk-real-looking-key-123456');
    vi.stubEnv('OPENAI_API_KEY', 'sk-real-looking-key-123456');
    realApi = await startRealApi();
    guard = installNetworkGuard();
    const replay = createReplayingFetch(compileScript({ lineages: { main: [{ text: 'Hello from the cassette.' }] } }));
    const client = new OpenAI({ baseURL: realApi.url, fetch: replay, maxRetries: 0 });
    expect(await streamedText(client)).toBe('Hello from the cassette.');
    expect(realApi.requests).toHaveLength(0);
    guard.assertNoEscapes();
    replay.assertConsumed();
  });
});

describe('msw handlers given to the guard', () => {
  const handlersFor = (api: LoopbackServer) => [
    http.get(`${api.url}/through`, () => passthrough()),
    http.get(`${api.url}/wrapped`, async () => {
      const real = await fetch(bypass(`${api.url}/real`));
      return HttpResponse.text(`wrapped ${real.status}`);
    }),
    http.get(`${api.url}/served`, () => HttpResponse.text('served by the handler')),
  ];

  test('answer what they serve; their passthrough() and what they send on with bypass() leave only where allowed, and never come back to them', async () => {
    realApi = await startRealApi();
    guard = installNetworkGuard({ handlers: handlersFor(realApi), allow: (url) => url.hostname === '127.0.0.1' });
    expect(await (await fetch(`${realApi.url}/served`)).text()).toBe('served by the handler');
    expect((await fetch(`${realApi.url}/through`)).status).toBe(200);
    expect(await (await fetch(`${realApi.url}/wrapped`)).text()).toBe('wrapped 200');
    expect(realApi.requests.map((request) => request.path)).toEqual(['/through', '/real']);
    // msw's bypass marker is not sent on.
    expect(realApi.requests[1]?.headers.accept ?? '').not.toContain('msw/passthrough');
    guard.assertNoEscapes();
  });

  test('where nothing is allowed, a passthrough() and a bypass() are failed and listed like any request, and reach nothing', async () => {
    realApi = await startRealApi();
    guard = installNetworkGuard({ handlers: handlersFor(realApi) });
    expect(await (await fetch(`${realApi.url}/served`)).text()).toBe('served by the handler');
    await expect(fetch(`${realApi.url}/through`)).rejects.toThrow();
    // The handler's own fetch fails; the handler's error is the caller's failure.
    const wrapped = await fetch(`${realApi.url}/wrapped`).then(
      (response) => response.status,
      () => 'failed',
    );
    expect(wrapped).not.toBe(200);
    expect(realApi.requests).toHaveLength(0);
    expect(guard.escapes()).toEqual([
      { method: 'GET', url: `${realApi.url}/through` },
      { method: 'GET', url: `${realApi.url}/real` },
    ]);
  });
});

describe('guards nest', () => {
  test('closing an inner guard (the one runScenario opens) leaves the outer one armed, and each sees the escapes made while it was open', async () => {
    realApi = await startRealApi();
    guard = installNetworkGuard();
    const inner = installNetworkGuard({ allow: () => true });
    await expect(fetch(`${realApi.url}/while-both`)).rejects.toThrow();
    expect(inner.escapes()).toEqual([{ method: 'GET', url: `${realApi.url}/while-both` }]);
    inner.close();
    inner.close();
    await expect(fetch(`${realApi.url}/after-inner`)).rejects.toThrow();
    expect(realApi.requests).toHaveLength(0);
    expect(guard.escapes().map((escape) => escape.url)).toEqual([
      `${realApi.url}/while-both`,
      `${realApi.url}/after-inner`,
    ]);
  });

  test('key-like variables are removed for a replay and put back after it, nested scrubs included', () => {
    vi.stubEnv('SOME_SERVICE_TOKEN', 'tok-0123456789');
    vi.stubEnv('PLAIN_SETTING', 'kept');
    const outer = scrubKeyLikeEnv();
    const inner = scrubKeyLikeEnv();
    expect(process.env['SOME_SERVICE_TOKEN']).toBeUndefined();
    expect(process.env['PLAIN_SETTING']).toBe('kept');
    inner();
    expect(process.env['SOME_SERVICE_TOKEN']).toBeUndefined();
    outer();
    expect(process.env['SOME_SERVICE_TOKEN']).toBe('tok-0123456789');
  });
});

describe('serving a cassette through msw', () => {
  test('code using the global fetch is served from the cassette, with a key set and nothing reaching the real API', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-real-looking-key-123456');
    realApi = await startRealApi();
    const served = serveCassetteWithMsw(cassette(), { baseUrl: realApi.url });
    guard = installNetworkGuard({ handlers: served.handlers });
    const client = new OpenAI({ baseURL: realApi.url, maxRetries: 0 });
    expect(await streamedText(client)).toBe('Hello from the cassette.');
    const child = await fetch(`${realApi.url}/chat/completions`, {
      method: 'POST',
      headers: { 'x-session-lineage': 'main/call_1' },
      body: '{}',
    });
    expect(await child.text()).toContain('"content":"child"');
    expect(realApi.requests).toHaveLength(0);
    guard.assertNoEscapes();
    served.replay.assertConsumed();
  });

  test('withLineage attributes calls made through msw as well', async () => {
    realApi = await startRealApi();
    const served = serveCassetteWithMsw(cassette(), { baseUrl: realApi.url });
    guard = installNetworkGuard({ handlers: served.handlers });
    const text = await withLineage('main/call_1', async () =>
      (await fetch(`${realApi!.url}/chat/completions`, { method: 'POST', body: '{}' })).text(),
    );
    expect(text).toContain('"content":"child"');
  });

  test('a replay error reaches the client as an OpenAI-shaped error with the nestcast message', async () => {
    realApi = await startRealApi();
    const served = serveCassetteWithMsw(cassette(), { baseUrl: realApi.url });
    guard = installNetworkGuard({ handlers: served.handlers });
    const response = await fetch(`${realApi.url}/chat/completions`, {
      method: 'POST',
      headers: { 'x-session-lineage': 'main/call_9' },
      body: '{}',
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      error: { code: 'UNRECORDED_SESSION', message: expect.stringContaining('Recorded sessions: main, main/call_1.') },
    });
    expect(served.replay.report().failures).toHaveLength(1);
  });
});
