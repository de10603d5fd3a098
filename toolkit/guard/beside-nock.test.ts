import http from 'node:http';
import https from 'node:https';
import { afterEach, describe, expect, test } from 'vitest';
import type { LoopbackServer } from '../../test/support/loopback-server.js';
import { startRealApi } from '../../test/support/real-api.js';
import { installNetworkGuard, type NetworkGuard } from './network-guard.js';

// nock runs on its own, older copy of msw's interceptors, which patches fetch and node:http apart
// from the guard's: whichever patched last answers fetch first (docs/recording.md). Its interception
// lasts for the process, so this file has a fork of its own, and its tests run in order.

const NOCKED = 'http://nocked.invalid';
const { default: nock } = await import('nock');

let guard: NetworkGuard | undefined;
let realApi: LoopbackServer | undefined;
afterEach(async () => {
  guard?.close();
  guard = undefined;
  nock.cleanAll();
  await realApi?.close();
  realApi = undefined;
});

const nocked = async () => (await fetch(`${NOCKED}/nocked`)).text();

/** Sends `request` (a node:http(s) call, unsent) and resolves with the body it gets back. */
function bodyOf(request: http.ClientRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    request.on('response', (response: http.IncomingMessage) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(text));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

describe('nock beside the guard', () => {
  test('loaded before the guard, nock patches beneath it: the guard refuses its mocks unless allowed, and nock answers again once the guard closes', async () => {
    realApi = await startRealApi();
    nock(NOCKED).get('/nocked').times(3).reply(200, 'from nock');
    guard = installNetworkGuard();
    await expect(fetch(`${NOCKED}/nocked`)).rejects.toThrow();
    expect(guard.escapes()).toEqual([{ method: 'GET', url: `${NOCKED}/nocked` }]);
    guard.close();
    guard = installNetworkGuard({ allow: (url) => url.hostname === 'nocked.invalid' });
    expect(await nocked()).toBe('from nock');
    guard.assertNoEscapes();
    guard.close();
    guard = undefined;
    expect(await nocked()).toBe('from nock');
    expect(realApi.requests).toHaveLength(0);
  });

  test('loaded before the guard, nock answers its node:http(s) mocks in every call form while the guard is open, what it lets by is refused and listed, and closing the guard puts back its patch', async () => {
    realApi = await startRealApi();
    const before = [http.ClientRequest, http.request, http.get, https.request, https.get];
    nock(NOCKED).get('/nocked').times(5).reply(200, 'from nock');
    nock('https://nocked.invalid').get('/nocked').reply(200, 'from nock over https');
    guard = installNetworkGuard();
    // A URL alone reached nock's copy as options without a prototype, and it threw a TypeError.
    expect(await bodyOf(http.get(`${NOCKED}/nocked`))).toBe('from nock');
    expect(await bodyOf(http.request({ host: 'nocked.invalid', path: '/nocked' }))).toBe('from nock');
    expect(await bodyOf(http.request(new URL(`${NOCKED}/nocked`), { headers: { accept: 'text/plain' } }))).toBe(
      'from nock',
    );
    expect(await bodyOf(new http.ClientRequest(`${NOCKED}/nocked`))).toBe('from nock');
    expect(await bodyOf(https.get('https://nocked.invalid/nocked'))).toBe('from nock over https');
    await expect(bodyOf(http.get(`${realApi.url}/not-nocked`))).rejects.toThrow();
    expect(guard.escapes()).toEqual([{ method: 'GET', url: `${realApi.url}/not-nocked` }]);
    guard.close();
    guard = undefined;
    expect([http.ClientRequest, http.request, http.get, https.request, https.get]).toEqual(before);
    expect(await bodyOf(http.get(`${NOCKED}/nocked`))).toBe('from nock');
    expect(realApi.requests).toHaveLength(0);
  });

  test('loaded while a guard is open, nock patches fetch over it: its mocks answer, what it lets by is refused, and its mocks still answer after the guard closes', async () => {
    realApi = await startRealApi();
    nock.restore();
    guard = installNetworkGuard();
    nock.activate();
    nock(NOCKED).get('/nocked').times(2).reply(200, 'from nock');
    expect(await nocked()).toBe('from nock');
    await expect(fetch(`${realApi.url}/not-nocked`)).rejects.toThrow();
    expect(guard.escapes()).toEqual([{ method: 'GET', url: `${realApi.url}/not-nocked` }]);
    guard.close();
    guard = undefined;
    // Closing the guard must not take nock's patch with it: this call would reach the network.
    expect(await nocked()).toBe('from nock');
    expect(realApi.requests).toHaveLength(0);
  });

  test('loaded while a guard is open, nock patches node:http over it: a call in any form reaches the guard, which refuses and lists it unless allowed, and nock answers what is allowed', async () => {
    realApi = await startRealApi();
    nock.restore();
    guard = installNetworkGuard({ allow: (url) => url.hostname === 'nocked.invalid' });
    nock.activate();
    nock(NOCKED).get('/nocked').times(3).reply(200, 'from nock');
    // nock hands a URL alone on as options without a prototype, which the guard's copy threw on.
    expect(await bodyOf(http.get(`${NOCKED}/nocked`))).toBe('from nock');
    expect(await bodyOf(http.request({ host: 'nocked.invalid', path: '/nocked' }))).toBe('from nock');
    await expect(bodyOf(http.get(`${realApi.url}/not-nocked`))).rejects.toThrow();
    expect(guard.escapes()).toEqual([{ method: 'GET', url: `${realApi.url}/not-nocked` }]);
    guard.close();
    guard = installNetworkGuard();
    await expect(bodyOf(http.get(`${NOCKED}/nocked`))).rejects.toThrow();
    expect(guard.escapes()).toEqual([{ method: 'GET', url: `${NOCKED}/nocked` }]);
    guard.close();
    guard = undefined;
    expect(await bodyOf(http.get(`${NOCKED}/nocked`))).toBe('from nock');
    expect(realApi.requests).toHaveLength(0);
  });
});
