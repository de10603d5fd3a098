import { afterEach, describe, expect, test } from 'vitest';
import type { LoopbackServer } from '../../test/support/loopback-server.js';
import { startRealApi } from '../../test/support/real-api.js';
import { installNetworkGuard, type NetworkGuard } from './network-guard.js';

// nock runs on its own, older copy of msw's interceptors, which patches fetch apart from the
// guard's: whichever patched last answers first. (Over node:http, nock's mocks are refused while a
// guard is open, whichever loaded first: docs/recording.md.) Its interception lasts for the process,
// so this file has a fork of its own, and its tests run in order.

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
});
