import http_, { request as httpRequest } from 'node:http';
import { http, HttpResponse } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import OpenAI from 'openai';
import { afterEach, describe, expect, test } from 'vitest';
import type { LoopbackServer } from '../../test/support/loopback-server.js';
import { startRealApi, streamedText } from '../../test/support/real-api.js';
import { compileScript } from '../authored/compile-script.js';
import { installNetworkGuard, type NetworkGuard } from './network-guard.js';
import { serveCassetteWithMsw } from './serve-cassette-with-msw.js';

// A test's own msw server and the guard share msw's interceptors, which can stay applied for the
// rest of the process once a server has listened on the guard's: so this file has a fork of its own.

const MOCKED = "from the test's own msw";

let guard: NetworkGuard | undefined;
let server: SetupServer | undefined;
let realApi: LoopbackServer | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
  guard?.close();
  guard = undefined;
  await realApi?.close();
  realApi = undefined;
});

/** A test's own msw server mocking `GET /mocked` of the API, letting everything else by. */
function listen(api: LoopbackServer, ...more: Parameters<typeof setupServer>): SetupServer {
  const started = setupServer(
    http.get(`${api.url}/mocked`, () => HttpResponse.text(MOCKED)),
    ...more,
  );
  started.listen({ onUnhandledRequest: 'bypass' });
  return started;
}

/** node:http's answer as text, or 'failed'. */
const httpText = (url: string) =>
  new Promise<string>((resolve) => {
    const req = httpRequest(url, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', () => resolve('failed'));
    req.end();
  });

const mockedText = async (api: LoopbackServer) => (await fetch(`${api.url}/mocked`)).text();

/** The guard's escapes, as paths of the API. */
const escapedPaths = (open: NetworkGuard, api: LoopbackServer) =>
  open.escapes().map((escape) => escape.url.slice(api.url.length));

/** What the interceptors patch. */
const patched = () => ({ fetch: globalThis.fetch, request: http_.request });

describe("a test's own msw server beside the guard", () => {
  test('a guard with no server beside it puts back what it patched', async () => {
    const original = patched();
    installNetworkGuard().close();
    expect(patched()).toEqual(original);
  });

  for (const started of ['before', 'after'] as const) {
    test(`started ${started} the guard: what it answers (fetch, node:http, a cassette it serves) is no escape, and what it lets by is failed and listed`, async () => {
      realApi = await startRealApi();
      const served = serveCassetteWithMsw(
        compileScript({ lineages: { main: [{ text: 'Hello from the cassette.' }] } }),
        { baseUrl: realApi.url },
      );
      if (started === 'before') server = listen(realApi, ...served.handlers);
      guard = installNetworkGuard();
      if (started === 'after') server = listen(realApi, ...served.handlers);

      expect(await mockedText(realApi)).toBe(MOCKED);
      expect(await httpText(`${realApi.url}/mocked`)).toBe(MOCKED);
      const client = new OpenAI({ baseURL: realApi.url, apiKey: 'k', maxRetries: 0 });
      expect(await streamedText(client)).toBe('Hello from the cassette.');
      await expect(fetch(`${realApi.url}/unmocked`)).rejects.toThrow();
      expect(await httpText(`${realApi.url}/unmocked-http`)).toBe('failed');

      expect(realApi.requests).toHaveLength(0);
      expect(escapedPaths(guard, realApi)).toEqual(['/unmocked', '/unmocked-http']);
    });
  }

  test('guards opened and closed one after another while a server runs (started in beforeAll): each guards, the server keeps mocking, and closing it puts back what it patched', async () => {
    realApi = await startRealApi();
    const original = patched();
    server = listen(realApi);
    for (const path of ['/first', '/second', '/third']) {
      const open = installNetworkGuard();
      try {
        expect(await mockedText(realApi)).toBe(MOCKED);
        await expect(fetch(`${realApi.url}${path}`)).rejects.toThrow();
        expect(escapedPaths(open, realApi)).toEqual([path]);
      } finally {
        open.close();
      }
      expect(await mockedText(realApi)).toBe(MOCKED);
    }
    server.close();
    expect(realApi.requests).toHaveLength(0);
    expect(patched()).toEqual(original);
  });

  test('a server started and closed twice while a guard is open (scenario code of its own): it mocks each time, the guard keeps guarding, and servers and guards started later work', async () => {
    realApi = await startRealApi();
    guard = installNetworkGuard();
    for (const path of ['/first', '/second']) {
      server = listen(realApi);
      expect(await mockedText(realApi)).toBe(MOCKED);
      await expect(fetch(`${realApi.url}${path}`)).rejects.toThrow();
      server.close();
    }
    await expect(fetch(`${realApi.url}/after-the-servers`)).rejects.toThrow();
    expect(escapedPaths(guard, realApi)).toEqual(['/first', '/second', '/after-the-servers']);
    guard.close();

    // msw's interceptors, which every server of a process shares, listened on the guard's: a
    // server started now must still get its requests, and a new guard must still see them.
    server = listen(realApi);
    expect(await mockedText(realApi)).toBe(MOCKED);
    expect(await httpText(`${realApi.url}/mocked`)).toBe(MOCKED);
    expect((await fetch(`${realApi.url}/unguarded`)).status).toBe(200);
    guard = installNetworkGuard();
    expect(await mockedText(realApi)).toBe(MOCKED);
    await expect(fetch(`${realApi.url}/guarded-again`)).rejects.toThrow();
    expect(escapedPaths(guard, realApi)).toEqual(['/guarded-again']);
    expect(realApi.requests.map((request) => request.path)).toEqual(['/unguarded']);
  });

  test('a guard closed while a server started after it still runs: the server keeps mocking, and what is not mocked reaches the network again', async () => {
    realApi = await startRealApi();
    guard = installNetworkGuard();
    server = listen(realApi);
    await expect(fetch(`${realApi.url}/while-guarded`)).rejects.toThrow();
    expect(escapedPaths(guard, realApi)).toEqual(['/while-guarded']);
    guard.close();
    expect(await mockedText(realApi)).toBe(MOCKED);
    expect((await fetch(`${realApi.url}/unguarded`)).status).toBe(200);
    server.close();
    server = listen(realApi);
    expect(await mockedText(realApi)).toBe(MOCKED);
    expect(realApi.requests.map((request) => request.path)).toEqual(['/unguarded']);
  });
});
