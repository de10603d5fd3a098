/**
 * One measurement of item 11, alone in its own process so its peak RSS is its own. argv:
 * `<mode> <calls> <callsPerSession> <dir>`. `record` plays the sessions through the recording
 * fetch and saves the cassette to dir; `replay` loads it from dir and replays every call; `client`
 * plays them against a plain fetch (what the client costs without nestcast). Prints one JSON line.
 */
import { performance } from 'node:perf_hooks';
import { loadCassette } from '../toolkit/cassette/load-cassette.js';
import { createRecordingFetch } from '../toolkit/record/recording-fetch.js';
import { createReplayingFetch } from '../toolkit/replay/replaying-fetch.js';
import { playConversations, replyFetch } from './fixtures/conversation.js';

export interface GrowingSessionSample {
  readonly mode: 'record' | 'replay' | 'client';
  readonly calls: number;
  /** Mean time per call over the whole play. */
  readonly msPerCall: number;
  /** record: saving the cassette; replay: loading it. Per call. */
  readonly fileMsPerCall: number;
  readonly peakRssMb: number;
}

const [mode, callsArg, perSessionArg, dir] = process.argv.slice(2) as [
  GrowingSessionSample['mode'],
  string,
  string,
  string,
];
const calls = Number(callsArg);
const perSession = Number(perSessionArg);
const sessions = calls / perSession;

let fileMs = 0;
let fetch: typeof globalThis.fetch = replyFetch;
let finish = async (): Promise<void> => undefined;
if (mode === 'record') {
  const recorder = createRecordingFetch({ fetch: replyFetch });
  fetch = recorder;
  finish = async () => {
    const started = performance.now();
    await recorder.save(dir);
    fileMs = performance.now() - started;
  };
} else if (mode === 'replay') {
  const started = performance.now();
  const cassette = await loadCassette(dir);
  fileMs = performance.now() - started;
  const replay = createReplayingFetch(cassette, { mode: 'strict' });
  fetch = replay;
  finish = async () => replay.assertConsumed();
}
const started = performance.now();
await playConversations(fetch, sessions, undefined, perSession);
const playMs = performance.now() - started;
await finish();
const sample: GrowingSessionSample = {
  mode,
  calls,
  msPerCall: playMs / calls,
  fileMsPerCall: fileMs / calls,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
};
process.stdout.write(`${JSON.stringify(sample)}\n`);
