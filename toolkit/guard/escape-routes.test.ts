import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import http2 from 'node:http2';
import { connect as netConnect, createServer as createTcpServer, type Server } from 'node:net';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { Worker } from 'node:worker_threads';
import {
  Agent,
  Client,
  getGlobalDispatcher,
  Pool,
  request as undiciRequest,
  setGlobalDispatcher,
  WebSocket as UndiciWebSocket,
} from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../../test/support/loopback-server.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { installNetworkGuard, type NetworkGuard } from './network-guard.js';

let guard: NetworkGuard | undefined;
let trap: LoopbackServer | undefined;
let dir: string | undefined;
const servers: { close(): unknown }[] = [];
const dispatcherBefore = getGlobalDispatcher();

afterEach(async () => {
  guard?.close();
  guard = undefined;
  setGlobalDispatcher(dispatcherBefore);
  await trap?.close();
  trap = undefined;
  for (const server of servers.splice(0)) server.close();
  if (dir) await removeTempDir(dir);
  dir = undefined;
});

/** Stands in for a real API: anything that reaches it escaped. */
async function startTrap(): Promise<LoopbackServer> {
  return startLoopbackServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"reached":true}');
  });
}

/** A raw TCP server on loopback that counts connections. */
async function startTcpServer(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server: Server = createTcpServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as { port: number }).port, connections: () => connections };
}

async function outcome(send: () => Promise<unknown>): Promise<string> {
  try {
    await send();
    return 'reached';
  } catch (error) {
    return `refused: ${(error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code}`;
  }
}

describe('undici used with its own dispatchers', () => {
  test('an explicit Client, a request through a new Agent, and a Pool are refused at the socket, reach nothing and are listed', async () => {
    trap = await startTrap();
    guard = installNetworkGuard();
    const client = new Client(trap.url);
    const pool = new Pool(trap.url);
    const results = [
      await outcome(() => client.request({ path: '/client', method: 'GET' })),
      await outcome(() => undiciRequest(`${trap!.url}/agent`, { dispatcher: new Agent() })),
      await outcome(() => pool.request({ path: '/pool', method: 'POST', body: '{}' })),
    ];
    await Promise.all([client.close(), pool.close()]);

    expect(results).toEqual(['refused: NETWORK_ESCAPE', 'refused: NETWORK_ESCAPE', 'refused: NETWORK_ESCAPE']);
    expect(trap.requests).toEqual([]);
    const origin = trap.url.replace('http://', 'tcp://');
    expect(guard.escapes()).toEqual([
      { method: 'CONNECT', url: origin },
      { method: 'CONNECT', url: origin },
      { method: 'CONNECT', url: origin },
    ]);
    expect(() => guard!.assertNoEscapes()).toThrow(
      expect.objectContaining({ code: 'NETWORK_ESCAPE', message: expect.stringContaining(`  CONNECT ${origin}\n`) }),
    );
  });

  test('a dispatcher set with setGlobalDispatcher after the guard is armed (at a module’s import) cannot take undici.request or undici.fetch out', async () => {
    trap = await startTrap();
    guard = installNetworkGuard();
    setGlobalDispatcher(new Agent({ connections: 1 }));
    const { fetch: undiciFetch } = await import('undici');
    const results = [
      await outcome(() => undiciRequest(`${trap!.url}/global`)),
      await outcome(() => undiciFetch(`${trap!.url}/global-fetch`)),
    ];
    expect(results.every((result) => result.startsWith('refused'))).toBe(true);
    expect(trap.requests).toEqual([]);
    expect(guard.escapes()).toHaveLength(2);
  });

  test('allow still lets a chosen host through every layer: an explicit Client reaches the loopback server', async () => {
    trap = await startTrap();
    guard = installNetworkGuard({ allow: (url) => url.hostname === '127.0.0.1' });
    const client = new Client(trap.url);
    const response = await client.request({ path: '/allowed', method: 'GET' });
    expect(await response.body.json()).toEqual({ reached: true });
    await client.close();
    expect(trap.requests).toHaveLength(1);
    guard.assertNoEscapes();
  });
});

describe('http2 and raw sockets', () => {
  test("a WebSocket (Node's global one, or the undici package's where Node has none) is refused, reaches nothing and is listed", async () => {
    const tcp = await startTcpServer();
    guard = installNetworkGuard();
    const Socket = (globalThis as { WebSocket?: typeof UndiciWebSocket }).WebSocket ?? UndiciWebSocket;
    const socket = new Socket(`ws://127.0.0.1:${tcp.port}/live`);
    const ended = await new Promise<string>((resolve) => {
      socket.onopen = () => resolve('open');
      socket.onerror = () => resolve('error');
    });
    expect(ended).toBe('error');
    expect(tcp.connections()).toBe(0);
    // The opening handshake is an HTTP GET: listed as one, so the run fails with NETWORK_ESCAPE.
    expect(guard.escapes()).toEqual([{ method: 'GET', url: `http://127.0.0.1:${tcp.port}/live` }]);
  });

  test('http2.connect to a real http2 server on loopback fails and the server never sees a session', async () => {
    const server = http2.createServer();
    servers.push(server);
    let sessions = 0;
    server.on('session', () => (sessions += 1));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as { port: number }).port;
    guard = installNetworkGuard();

    const session = http2.connect(`http://127.0.0.1:${port}`);
    const failed = once(session, 'error') as Promise<[Error & { code?: string }]>;
    const stream = session.request({ ':path': '/chat/completions', ':method': 'POST' });
    const answered = new Promise<string>((resolve) => {
      stream.once('response', () => resolve('answered'));
      stream.once('close', () => resolve('closed without an answer'));
      stream.on('error', () => undefined);
    });
    stream.end('{}');
    const [[error], outcome] = await Promise.all([failed, answered]);
    session.destroy();

    expect(error.code).toBe('NETWORK_ESCAPE');
    expect(outcome).toBe('closed without an answer');
    expect(sessions).toBe(0);
    expect(guard.escapes()).toEqual([{ method: 'CONNECT', url: `tcp://127.0.0.1:${port}` }]);
  });

  test('net.connect and tls.connect are refused, to loopback and to any other host, before any lookup; a local pipe is not the network', async () => {
    const tcp = await startTcpServer();
    guard = installNetworkGuard();
    const failure = async (socket: ReturnType<typeof netConnect>) =>
      ((await once(socket, 'error')) as [Error & { code?: string }])[0].code;

    const codes = [
      await failure(netConnect(tcp.port, '127.0.0.1')),
      await failure(netConnect({ host: '192.0.2.1', port: 443 })),
      await failure(tlsConnect({ host: 'api.openai.com', port: 443 })),
    ];
    expect(codes).toEqual(['NETWORK_ESCAPE', 'NETWORK_ESCAPE', 'NETWORK_ESCAPE']);
    expect(tcp.connections()).toBe(0);
    expect(guard.escapes()).toEqual([
      { method: 'CONNECT', url: `tcp://127.0.0.1:${tcp.port}` },
      { method: 'CONNECT', url: 'tcp://192.0.2.1:443' },
      { method: 'CONNECT', url: 'tls://api.openai.com:443' },
    ]);

    dir = await makeTempDir('pipe-');
    const path = join(dir, 'local.sock');
    const pipeServer = createTcpServer((socket) => socket.end('pong'));
    servers.push(pipeServer);
    pipeServer.listen(path);
    await once(pipeServer, 'listening');
    const local = netConnect(path);
    const [reply] = (await once(local, 'data')) as [Buffer];
    expect(reply.toString()).toBe('pong');
    expect(guard.escapes()).toHaveLength(3);
  });
});

describe('worker threads', () => {
  /** Starts `code` in a real worker thread and resolves with the first message it posts. */
  async function runInWorker(code: string, options: ConstructorParameters<typeof Worker>[1] = {}): Promise<unknown> {
    const worker = new Worker(code, { eval: true, ...options });
    const [message] = (await once(worker, 'message')) as [unknown];
    await worker.terminate();
    return message;
  }

  test('a fetch, node:http and an undici Client in a worker thread started after the guard are refused, reach nothing, and the parent’s guard lists them at once', async () => {
    trap = await startTrap();
    guard = installNetworkGuard();
    const message = await runInWorker(
      `
      const { parentPort, workerData } = require('node:worker_threads');
      const http = require('node:http');
      const { Client } = require('undici');
      const attempt = (send) => send().then(() => 'reached', (error) => 'refused');
      (async () => {
        parentPort.postMessage([
          await attempt(() => fetch(workerData + '/fetch?key=sk-secret-in-query', { method: 'POST', body: process.env.AZURE_OPENAI_KEY ?? 'no key' })),
          await attempt(() => new Promise((resolve, reject) => http.get(workerData + '/http', resolve).on('error', reject))),
          await attempt(() => new Client(workerData).request({ path: '/client', method: 'GET' })),
        ]);
      })();
      `,
      { workerData: trap.url },
    );

    expect(message).toEqual(['refused', 'refused', 'refused']);
    expect(trap.requests).toEqual([]);
    const origin = trap.url.replace('http://', 'tcp://');
    expect(guard.escapes()).toEqual([
      { method: 'POST', url: `${trap.url}/fetch` },
      { method: 'CONNECT', url: origin },
      { method: 'CONNECT', url: origin },
    ]);
  });

  test('an ES module worker, and a worker it starts itself, are guarded too; a worker that needs no network runs as it would, its messages its own', async () => {
    trap = await startTrap();
    dir = await makeTempDir('workers-');
    const inner = join(dir, 'inner.mjs');
    await writeFile(
      inner,
      `import { parentPort, workerData } from 'node:worker_threads';
      parentPort.postMessage(await fetch(workerData + '/nested').then(() => 'reached', () => 'refused'));`,
    );
    const outer = join(dir, 'outer.mjs');
    await writeFile(
      outer,
      `import { once } from 'node:events';
      import { Worker, parentPort, workerData } from 'node:worker_threads';
      const first = await once(parentPort, 'message');
      const nested = new Worker(new URL('./inner.mjs', import.meta.url), { workerData: workerData.url });
      const [answer] = await once(nested, 'message');
      parentPort.postMessage({ first: first[0], primes: workerData.primes.filter((n) => n % 2 === 1), nested: answer });`,
    );
    guard = installNetworkGuard();
    const worker = new Worker(outer, { workerData: { url: trap.url, primes: [2, 3, 5, 7] } });
    worker.postMessage('hello from the parent');
    const [message] = (await once(worker, 'message')) as [unknown];
    await once(worker, 'exit');

    expect(message).toEqual({ first: 'hello from the parent', primes: [3, 5, 7], nested: 'refused' });
    expect(trap.requests).toEqual([]);
    await expect.poll(() => guard!.escapes()).toEqual([{ method: 'GET', url: `${trap.url}/nested` }]);
  });

  test('a worker started while no guard is open is left as it is', async () => {
    trap = await startTrap();
    const message = await runInWorker(
      `require('node:worker_threads').parentPort.postMessage(process.execArgv.some((arg) => arg.includes('worker-thread-guard')))`,
    );
    expect(message).toBe(false);
  });
});
