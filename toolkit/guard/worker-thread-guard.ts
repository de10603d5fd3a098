import { syncBuiltinESMExports } from 'node:module';
import { parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { armConnectRefusal } from './connect-refusal.js';
import type { EscapeSink, NetworkEscape } from './network-escape.js';
import { armUndiciRefusal } from './undici-refusal.js';
import { armWorkerThreadGuards, WORKER_GUARD_PORT } from './worker-thread-guards.js';

// Preloaded (`--require`) into every worker thread started while a network guard is open, before
// the worker's own code: armed here, the worker's fetch, node:http, undici and sockets are refused
// and each escape is reported to the thread that started it. Workers it starts get the same.

const first = parentPort === null ? undefined : receiveMessageOnPort(parentPort);
const port = (first?.message as Record<string, unknown> | undefined)?.[WORKER_GUARD_PORT] as MessagePort | undefined;
if (port === undefined)
  throw new Error(
    'nestcast worker-thread-guard: loaded without its port. It is preloaded by the network guard into the worker threads started while a guard is open; do not load it yourself.',
  );
port.unref();
const report = (escape: NetworkEscape): void => port.postMessage(escape);
// Nothing is allowed here: the parent's `allow` and msw handlers are functions of its own thread.
const sink: EscapeSink = { mayLeave: () => false, record: report };
armUndiciRefusal(sink);
armConnectRefusal(sink);
armWorkerThreadGuards(report);
syncBuiltinESMExports();
