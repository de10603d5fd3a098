import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { listenClosable } from '../../harness/http/listen-closable.js';
import { deferred } from '../../harness/runtime/deferred.js';
import {
  destroySocket,
  scriptedResponse,
  startLoopbackServer,
  wait,
  write,
  type LoopbackServer,
} from '../../test/support/loopback-server.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { createUpstreamFetch, type UpstreamFetch } from './upstream-fetch.js';

const servers: { close(): Promise<void> }[] = [];
let forward: UpstreamFetch;
beforeEach(() => {
  forward = createUpstreamFetch();
});
afterEach(async () => {
  forward.close();
  for (const server of servers.splice(0)) await server.close();
});

async function upstream(handler: Parameters<typeof startLoopbackServer>[0]): Promise<LoopbackServer> {
  const server = await startLoopbackServer(handler);
  servers.push(server);
  return server;
}

const post = (body: string, init: RequestInit = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
  body,
  ...init,
});

describe('createUpstreamFetch: a fetch on node:http for record mode’s upstream hop', () => {
  test('sends the method, body and headers, with what fetch adds to a request lacking them, and answers status and headers', async () => {
    const server = await upstream((_request, response) => {
      response.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-request-id': 'r1' });
      response.end('{"ok":true}');
    });
    const response = await forward(`${server.url}/v1/messages?beta=true`, post('{"q":"é"}'));
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.headers.get('x-request-id')).toBe('r1');
    expect(await response.json()).toEqual({ ok: true });
    const [sent] = server.requests;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/messages?beta=true', body: '{"q":"é"}' });
    expect(sent?.headers).toMatchObject({
      authorization: 'Bearer k',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength('{"q":"é"}')),
      'accept-encoding': 'gzip, deflate',
      'user-agent': 'node',
      accept: '*/*',
    });
  });

  test('a Request given as input is sent with its body and headers', async () => {
    const server = await upstream((_request, response) => void response.end('fine'));
    const request = new Request(`${server.url}/v1/x`, { method: 'PUT', headers: { 'x-a': 'b' }, body: 'payload' });
    expect(await (await forward(request)).text()).toBe('fine');
    expect(server.requests[0]).toMatchObject({ method: 'PUT', body: 'payload', headers: { 'x-a': 'b' } });
  });

  test('each chunk reaches the reader while the upstream waits for it to be read before sending the next', async () => {
    const read = [deferred<void>(), deferred<void>()];
    const server = await upstream(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n');
      await read[0]?.promise;
      response.write('data: two\n\n');
      await read[1]?.promise;
      response.end('data: three\n\n');
    });
    const response = await forward(`${server.url}/s`, post('{}'));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const parts: string[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      parts.push(decoder.decode(next.value));
      read[parts.length - 1]?.resolve();
    }
    expect(parts).toEqual(['data: one\n\n', 'data: two\n\n', 'data: three\n\n']);
  });

  test.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])(
    'a %s body is decoded as fetch decodes it, the content-encoding header left as received',
    async (coding, encode) => {
      const text = 'data: {"delta":"compressed"}\n\n'.repeat(20);
      const server = await upstream((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': coding });
        response.end(encode(Buffer.from(text)));
      });
      const response = await forward(`${server.url}/s`, post('{}'));
      expect(response.headers.get('content-encoding')).toBe(coding);
      expect(await response.text()).toBe(text);
    },
  );

  test('a gzip event stream is decoded chunk by chunk, not at its end', async () => {
    const read = deferred<void>();
    const server = await upstream(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const { createGzip, constants } = await import('node:zlib');
      const gzip = createGzip({ flush: constants.Z_SYNC_FLUSH });
      gzip.pipe(response);
      gzip.write('data: first\n\n');
      await read.promise;
      gzip.end('data: second\n\n');
    });
    const response = await forward(`${server.url}/s`, post('{}'));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    read.resolve();
    let rest = '';
    for (let next = await reader.read(); !next.done; next = await reader.read())
      rest += new TextDecoder().decode(next.value);
    expect(rest).toBe('data: second\n\n');
  });

  test('an upstream that is down rejects with TypeError "fetch failed", node’s ECONNREFUSED as the cause', async () => {
    const server = await startLoopbackServer(() => undefined);
    await server.close();
    const failure = await forward(`${server.url}/v1/x`, post('{}')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });

  test('a connection cut mid-body errors the body with TypeError "terminated", node’s ECONNRESET as the cause', async () => {
    const server = await upstream(scriptedResponse([write('data: part\n\n'), wait(20), destroySocket()]));
    const response = await forward(`${server.url}/s`, post('{}'));
    const failure = await response.text().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).toMatchObject({ message: 'terminated', cause: { code: 'ECONNRESET' } });
  });

  test('an abort before the head rejects with the signal’s reason and closes the upstream connection', async () => {
    const server = await upstream(async (_request, response) => {
      await new Promise((resolve) => response.once('close', resolve));
    });
    const controller = new AbortController();
    const pending = forward(`${server.url}/s`, post('{}', { signal: controller.signal }));
    await until(() => server.requests.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(await server.requests[0]?.outcome).toBe('closed-early');
  });

  test('an already aborted signal sends nothing', async () => {
    const server = await upstream((_request, response) => void response.end());
    const reason = new Error('caller gave up');
    await expect(forward(`${server.url}/s`, post('{}', { signal: AbortSignal.abort(reason) }))).rejects.toBe(reason);
    expect(server.requests).toEqual([]);
  });

  test('an abort during the body errors the body with the signal’s reason and closes the upstream connection', async () => {
    const server = await upstream(scriptedResponse([write('data: part\n\n'), wait(10_000)]));
    const controller = new AbortController();
    const response = await forward(`${server.url}/s`, post('{}', { signal: controller.signal }));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const reason = new Error('caller left');
    controller.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
    expect(await server.requests[0]?.outcome).toBe('closed-early');
  });

  test('cancelling the body closes the upstream connection', async () => {
    const server = await upstream(scriptedResponse([write('data: part\n\n'), wait(10_000)]));
    const response = await forward(`${server.url}/s`, post('{}'));
    await (response.body as ReadableStream<Uint8Array>).cancel();
    expect(await server.requests[0]?.outcome).toBe('closed-early');
  });

  test('a 204 answers with no body', async () => {
    const server = await upstream((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    const response = await forward(`${server.url}/s`, post('{}'));
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  test('calls one after another reuse one kept-alive connection', async () => {
    const ports: (number | undefined)[] = [];
    const server = await upstream((_request, response) => {
      ports.push(response.socket?.remotePort);
      response.end('ok');
    });
    for (let i = 0; i < 3; i++) expect(await (await forward(`${server.url}/s`, post('{}'))).text()).toBe('ok');
    expect(ports).toHaveLength(3);
    expect(new Set(ports).size).toBe(1);
  });
});

describe('createUpstreamFetch over https', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('upstream-tls-');
  });
  afterEach(async () => removeTempDir(dir));

  test('an https upstream is reached over TLS and its certificate is checked: a self-signed one fails as fetch fails', async () => {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      {
        stdio: 'ignore',
      },
    );
    let reached = 0;
    const server = createServer({ key: await readFile(key), cert: await readFile(cert) }, (_req, res) => {
      reached++;
      res.end('should not be reached');
    });
    const { address, close } = await listenClosable(server);
    servers.push({ close });
    const failure = await forward(`https://127.0.0.1:${address.port}/v1/x`, post('{}')).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).toMatchObject({ message: 'fetch failed', cause: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } });
    expect(reached).toBe(0);
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
