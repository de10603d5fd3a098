import FetchAdapterModule from '@pollyjs/adapter-fetch';
import { Polly } from '@pollyjs/core';
import PersisterModule, { type Har } from '@pollyjs/persister';
import type { Call } from '../fixtures/consumers.js';

// Polly's packages are CommonJS (`module.exports = Class`) typed as ES modules with a default
// export: under NodeNext the default import is the class at run time, not what the types say.
const FetchAdapter = FetchAdapterModule as unknown as typeof FetchAdapterModule.default;
const Persister = PersisterModule as unknown as typeof PersisterModule.default;

const recordings = new Map<string, Har>();

/** Keeps HAR recordings in memory, so the peer pays for matching and serving, not for a disk. */
class MemoryPersister extends Persister {
  static override get id(): string {
    return 'bench-memory';
  }
  override onFindRecording(recordingId: string): Promise<Har | null> {
    return Promise.resolve(recordings.get(recordingId) ?? null);
  }
  override onSaveRecording(recordingId: string, data: Har): Promise<void> {
    recordings.set(recordingId, data);
    return Promise.resolve();
  }
  override onDeleteRecording(recordingId: string): Promise<void> {
    recordings.delete(recordingId);
    return Promise.resolve();
  }
}

Polly.register(FetchAdapter);
Polly.register(MemoryPersister);

export interface PollyReplay {
  readonly fetch: typeof globalThis.fetch;
  stop(): Promise<void>;
}

/**
 * Polly.js replaying the same exchange: `record` runs one call through Polly in record mode
 * (against `upstream`), then Polly replays it from the in-memory HAR with order matching off, as
 * a suite that repeats a call would need. Polly patches the `fetch` of the context it is given;
 * each instance gets its own context, so nothing global changes.
 */
export async function pollyReplay(
  name: string,
  upstream: typeof globalThis.fetch,
  record: (fetch: typeof globalThis.fetch) => Call,
): Promise<PollyReplay> {
  const start = (mode: 'record' | 'replay', fetch: typeof globalThis.fetch) => {
    const context = { fetch, Request, Response, Headers };
    const polly = new Polly(name, {
      mode,
      recordIfMissing: false,
      adapters: ['fetch'],
      adapterOptions: { fetch: { context } },
      persister: 'bench-memory',
      matchRequestsBy: { order: false },
      logLevel: 'silent',
    });
    return { polly, fetch: ((input, init) => context.fetch(input, init)) as typeof globalThis.fetch };
  };
  const recorder = start('record', upstream);
  await record(recorder.fetch)();
  await recorder.polly.stop();
  const replayer = start('replay', () => Promise.reject(new Error('Polly replay reached the network')));
  return { fetch: replayer.fetch, stop: () => replayer.polly.stop() };
}
