import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type ProxyKind = 'tcp' | 'http';

export interface ForwardingProxy {
  readonly url: string;
  stop(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL('./forwarding-proxy.mjs', import.meta.url));

/** `forwarding-proxy.mjs` as a process of its own in front of `upstream`, once it has printed its URL. */
export async function startForwardingProxy(kind: ProxyKind, upstream: string): Promise<ForwardingProxy> {
  const child = spawn(process.execPath, [SCRIPT, kind, upstream], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve(stdout.trim());
    });
    void ended.then(() => reject(new Error(`the ${kind} forwarding proxy exited before it listened`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await ended;
    },
  };
}
