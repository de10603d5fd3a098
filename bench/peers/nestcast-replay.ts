import type { Cassette } from '../../toolkit/cassette/types.js';
import { createRecordingFetch } from '../../toolkit/record/recording-fetch.js';
import { createReplayingFetch } from '../../toolkit/replay/replaying-fetch.js';
import type { Call } from '../fixtures/consumers.js';

/** Enough repetitions of the recorded call for every call a bench makes through one replaying fetch. */
const REPETITIONS = 200_000;
/** Roots for a client without the header: one per call, and a bench makes about 500 per subject. */
const ROOTS = 5_000;

/**
 * nestcast replaying the same exchange: one call recorded through the recording fetch (against
 * `upstream`), then served by one replaying fetch in strict mode, as a suite would. Every call of
 * the bench is matched against the whole recorded request: call N of session `main` when the
 * client sends the lineage header, else (threaded by content) the first call of the next root.
 */
export async function nestcastReplay(
  upstream: typeof fetch,
  record: (fetch: typeof globalThis.fetch) => Call,
): Promise<typeof fetch> {
  const recorder = createRecordingFetch({ fetch: upstream });
  await record(recorder)();
  const cassette = await recorder.cassette();
  const [call] = cassette.calls['main'] ?? [];
  if (!call)
    throw new Error(
      `the recording holds no call of session "main" (sessions: ${Object.keys(cassette.calls).join(', ')})`,
    );
  // `main` repeats the call for a client that names its session (the adapter's header); the roots
  // `main-2`, `main-3`… hold one call each for a client that names none (the openai SDK): its
  // every call is an identical new conversation, threaded by content to the next recorded root.
  const roots = Object.fromEntries(Array.from({ length: ROOTS - 1 }, (_, i) => [`main-${i + 2}`, [call]]));
  const repeated: Cassette = { ...cassette, calls: { main: new Array(REPETITIONS).fill(call), ...roots } };
  return createReplayingFetch(repeated, { mode: 'strict', timing: 'instant' });
}
