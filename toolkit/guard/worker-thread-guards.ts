import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import workerThreads, {
  MessageChannel,
  receiveMessageOnPort,
  type MessagePort,
  type WorkerOptions,
} from 'node:worker_threads';
import { isNetworkEscape, type NetworkEscape } from './network-escape.js';

/** The key of the first message every guarded worker gets: the port its escapes travel back on. */
export const WORKER_GUARD_PORT = 'nestcast:worker-guard-port';

export interface WorkerThreadGuards {
  /** Takes every escape the workers reported and the parent has not seen yet, synchronously. */
  drain(): void;
  disarm(): void;
}

/**
 * The preload that arms a guard in a worker thread: the built `dist/worker-thread-guard.js`, or,
 * from the TypeScript sources (tests), `toolkit/guard/worker-thread-guard.ts` through tsx's
 * require hook. `--require`, not `--import`: Node 20 runs no `--import` before an `eval` worker.
 */
function preloadArgs(): string[] {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 5; up++) {
    const built = join(dir, 'worker-thread-guard.js');
    if (dir.endsWith('dist') && existsSync(built)) return ['--require', built];
    const source = join(dir, 'toolkit', 'guard', 'worker-thread-guard.ts');
    if (existsSync(source))
      return ['--require', createRequire(import.meta.url).resolve('tsx/cjs'), '--require', source];
    dir = dirname(dir);
  }
  throw new Error(`nestcast network guard: cannot find worker-thread-guard near ${fileURLToPath(import.meta.url)}`);
}

/**
 * What a worker started with the parent's own options would get: process.execArgv, less the
 * flags a worker refuses (`--title`, V8 heap sizes), which Node names in the error.
 */
let inheritable: string[] | undefined;
function inheritableExecArgv(): string[] {
  return inheritable ?? [...process.execArgv];
}
function dropRefused(error: unknown): boolean {
  if ((error as { code?: unknown } | null)?.code !== 'ERR_WORKER_INVALID_EXEC_ARGV' || inheritable !== undefined)
    return false;
  const refused = new Set(
    String((error as Error).message)
      .replace(/^[^:]*:\s*/, '')
      .split(/,\s*/),
  );
  const kept: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (!refused.has(arg)) kept.push(arg);
    // A refused flag's value, given as the next argument.
    else if (!arg.includes('=') && argv[i + 1] !== undefined && !(argv[i + 1] as string).startsWith('-')) i += 1;
  }
  inheritable = kept;
  return true;
}

/**
 * Replaces `worker_threads.Worker` (callers then run `syncBuiltinESMExports`) with a subclass that
 * preloads a guard into every worker thread it starts: a worker shares none of this thread's
 * interception (msw, the patched sockets and dispatcher are per thread), so its requests would
 * otherwise leave unseen. The worker's guard refuses everything (this thread's `allow` and
 * `handlers` are functions that cannot cross) and reports each escape on a port of its own, which
 * `drain` reads synchronously, so an escape is seen the moment the parent asks.
 */
export function armWorkerThreadGuards(record: (escape: NetworkEscape) => void): WorkerThreadGuards {
  const Original = workerThreads.Worker;
  const ports = new Set<MessagePort>();
  const drainPort = (port: MessagePort): void => {
    for (let received = receiveMessageOnPort(port); received; received = receiveMessageOnPort(port))
      if (isNetworkEscape(received.message)) record(received.message);
  };
  const preload = preloadArgs();
  function GuardedWorker(this: unknown, filename: string | URL, options: WorkerOptions = {}): object {
    const construct = (): workerThreads.Worker =>
      Reflect.construct(
        Original,
        [filename, { ...options, execArgv: [...(options.execArgv ?? inheritableExecArgv()), ...preload] }],
        new.target ?? GuardedWorker,
      ) as workerThreads.Worker;
    let worker: workerThreads.Worker;
    try {
      worker = construct();
    } catch (error) {
      if (options.execArgv !== undefined || !dropRefused(error)) throw error;
      worker = construct();
    }
    const { port1, port2 } = new MessageChannel();
    // Before any message of the caller's: the preload takes it synchronously, before the worker's code runs.
    Original.prototype.postMessage.call(worker, { [WORKER_GUARD_PORT]: port2 }, [port2]);
    port1.on('message', (message: unknown) => {
      if (isNetworkEscape(message)) record(message);
    });
    port1.unref();
    ports.add(port1);
    worker.once('exit', () => {
      drainPort(port1);
      port1.close();
      ports.delete(port1);
    });
    return worker;
  }
  GuardedWorker.prototype = Original.prototype;
  Object.setPrototypeOf(GuardedWorker, Original);
  const guarded = GuardedWorker as unknown as typeof Original;
  workerThreads.Worker = guarded;
  return {
    drain() {
      for (const port of ports) drainPort(port);
    },
    disarm() {
      for (const port of ports) {
        drainPort(port);
        port.close();
      }
      ports.clear();
      if (workerThreads.Worker === guarded) workerThreads.Worker = Original;
    },
  };
}
