import { createServer } from 'node:net';

export interface GuardProxy {
  /** `http://127.0.0.1:<port>`: for a program's HTTPS_PROXY and HTTP_PROXY. */
  readonly url: string;
  /** The first line of every connection a program tried through it (`CONNECT api.anthropic.com:443 HTTP/1.1`). */
  readonly attempts: readonly string[];
  close(): Promise<void>;
}

/**
 * A loopback proxy that refuses every connection and keeps its first line: point a program's
 * HTTPS_PROXY at it (with NO_PROXY=127.0.0.1) and `attempts` is whatever it sent anywhere but loopback.
 * The root project's test/support/guard-proxy.ts is the same.
 */
export async function startGuardProxy(): Promise<GuardProxy> {
  const attempts: string[] = [];
  const server = createServer((socket) => {
    socket.once('data', (chunk: Buffer) => {
      attempts.push(chunk.toString().split('\r\n')[0] ?? '');
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the guard proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    attempts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
