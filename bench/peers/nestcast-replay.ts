import type { Cassette } from '../../toolkit/cassette/types.js';
import { createRecordingFetch } from '../../toolkit/record/recording-fetch.js';
import { createReplayingFetch } from '../../toolkit/replay/replaying-fetch.js';
import type { Call } from '../fixtures/consumers.js';

/** Enough repetitions of the recorded call for every call a bench makes through one replaying fetch. */
const REPETITIONS = 200_000;

/**
 * nestcast replaying the same exchange: one call recorded through the recording fetch (against
 * `upstream`), then served by one replaying fetch in strict mode, as a suite would. The cassette
 * repeats that call so that every call of the bench is call N of session `main` and is matched
 * against the whole recorded request.
 */
export async function nestcastReplay(upstream: typeof fetch, record: (fetch: typeof globalThis.fetch) => Call): Promise<typeof fetch> {
  const recorder = createRecordingFetch({ fetch: upstream });
  await record(recorder)();
  const cassette = await recorder.cassette();
  const [call] = cassette.calls['main'] ?? [];
  if (!call) throw new Error(`the recording holds no call of session "main" (sessions: ${Object.keys(cassette.calls).join(', ')})`);
  const repeated: Cassette = { ...cassette, calls: { main: new Array(REPETITIONS).fill(call) } };
  return createReplayingFetch(repeated, { mode: 'strict', timing: 'instant' });
}
