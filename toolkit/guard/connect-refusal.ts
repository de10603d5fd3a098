import { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { EscapeSink } from './network-escape.js';

export interface ConnectRefusal {
  disarm(): void;
}

/** Where a `Socket#connect` call goes: a TCP host and port, or nothing for a local pipe (`path`). */
function connectTarget(args: readonly unknown[], tls: boolean): { label: string; url: URL | undefined } | undefined {
  // net.connect and tls.connect hand the socket their arguments already normalised, as an array.
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  let host: unknown;
  let port: unknown;
  if (first !== null && typeof first === 'object') {
    const options = first as { path?: unknown; host?: unknown; port?: unknown };
    if (typeof options.path === 'string' && options.path !== '') return undefined;
    host = options.host;
    port = options.port;
  } else if (typeof first === 'string' && !/^\s*\d+\s*$/.test(first)) return undefined;
  else {
    port = first;
    host = args[1];
  }
  const name = typeof host === 'string' && host !== '' ? host : 'localhost';
  const label = `${tls ? 'tls' : 'tcp'}://${name.includes(':') ? `[${name}]` : name}:${String(port)}`;
  try {
    return { label, url: new URL(label) };
  } catch {
    return { label, url: undefined };
  }
}

/**
 * Refuses every TCP connection the guard does not allow, loopback included, where every client
 * ends: `Socket#connect`, which net.connect, tls.connect, node:http agents, http2.connect and the
 * npm `undici` package's Client, Pool and Agent (its own or one given to `setGlobalDispatcher`)
 * all go through. The socket fails like a refused connection, before any DNS lookup. Local pipes
 * (a `path`) are not the network and pass.
 */
export function armConnectRefusal(sink: EscapeSink): ConnectRefusal {
  const original = Socket.prototype.connect;
  const refusing = function (this: Socket, ...args: unknown[]): Socket {
    const target = connectTarget(args, this instanceof TLSSocket);
    if (target === undefined || (target.url !== undefined && sink.mayLeave(target.url)))
      return (original as (...a: unknown[]) => Socket).apply(this, args);
    sink.record({ method: 'CONNECT', url: target.label });
    const error = Object.assign(new Error(`nestcast network guard: ${target.label} is not reachable during replay`), {
      code: 'NETWORK_ESCAPE',
    });
    // Connecting, as a real connect leaves it until it fails: a client that checks waits for the error.
    (this as { connecting: boolean }).connecting = true;
    process.nextTick(() => this.destroy(error));
    return this;
  };
  Socket.prototype.connect = refusing as typeof original;
  return {
    disarm() {
      if (Socket.prototype.connect === refusing) Socket.prototype.connect = original;
    },
  };
}
