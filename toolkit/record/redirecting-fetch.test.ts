import { afterEach, describe, expect, test } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../../test/support/loopback-server.js';
import { MODEL_SERVER_STAND_IN, redirectingFetch } from './redirecting-fetch.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('redirectingFetch', () => {
  test('sends a request for the stand-in base URL to the real server, keeping path, method, headers and body', async () => {
    server = await startLoopbackServer((_request, response) => void response.end('ok'));
    const fetch = redirectingFetch(globalThis.fetch, MODEL_SERVER_STAND_IN, server.url);

    const response = await fetch(`${MODEL_SERVER_STAND_IN}/chat/completions`, {
      method: 'POST',
      headers: { 'x-session-lineage': 'main/c1' },
      body: '{"a":1}',
    });

    expect(await response.text()).toBe('ok');
    expect(
      server.requests.map((request) => [
        request.method,
        request.path,
        request.headers['x-session-lineage'],
        request.body,
      ]),
    ).toEqual([['POST', '/chat/completions', 'main/c1', '{"a":1}']]);
  });

  test('leaves requests for other URLs alone', async () => {
    server = await startLoopbackServer((_request, response) => void response.end('direct'));
    const fetch = redirectingFetch(globalThis.fetch, MODEL_SERVER_STAND_IN, 'http://127.0.0.1:9');
    expect(await (await fetch(`${server.url}/x`)).text()).toBe('direct');
  });
});
