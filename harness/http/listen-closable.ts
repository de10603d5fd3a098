import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ClosableServer {
  readonly address: AddressInfo;
  /** Stops listening and destroys every open socket: a held response (a hung stream) cannot keep it open. */
  close(): Promise<void>;
}

/**
 * Starts `server` listening (default: 127.0.0.1 on a free port) and tracks its sockets, because
 * `server.close` alone waits for every open connection, and a test's or a script's stream may
 * never end on its own.
 */
export async function listenClosable(
  server: Server,
  where: { readonly host?: string; readonly port?: number } = {},
): Promise<ClosableServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port ?? 0, where.host ?? '127.0.0.1', () => resolve());
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
