import { describe, expect, it } from 'vitest';
import { scriptedResponse, sseFrames, startLoopbackServer, wait, write } from './loopback-server.js';

describe('loopback server', () => {
  it('records method, path, headers and body of each request', async () => {
    const server = await startLoopbackServer(scriptedResponse([write('data: 1\n\n')]));
    try {
      const response = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { 'x-probe': 'yes' },
        body: '{"a":1}',
      });
      expect(await response.text()).toBe('data: 1\n\n');
      expect(server.requests).toMatchObject([
        { method: 'POST', path: '/chat/completions', headers: { 'x-probe': 'yes' }, body: '{"a":1}' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('close() ends a response that is still being held open, so nothing hangs', async () => {
    const server = await startLoopbackServer(scriptedResponse([write('data: held\n\n'), wait(60_000)]));
    let closed = false;
    try {
      const response = await fetch(server.url);
      const reader = response.body?.getReader();
      await reader?.read();
      await server.close();
      closed = true;
      await expect(reader?.read()).rejects.toThrow();
      expect(await server.requests[0]?.outcome).toBe('closed-early');
    } finally {
      if (!closed) await server.close();
    }
  });

  it('builds data frames for chunks, ending with [DONE] unless told otherwise', () => {
    expect(sseFrames([{ a: 1 }])).toBe('data: {"a":1}\n\ndata: [DONE]\n\n');
    expect(sseFrames([{ a: 1 }], { done: false })).toBe('data: {"a":1}\n\n');
  });
});
