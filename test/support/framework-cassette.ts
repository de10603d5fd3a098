import { expect } from 'vitest';
import type { AuthoredScript } from '../../toolkit/authored/types.js';
import { loadCassette } from '../../toolkit/cassette/load-cassette.js';
import type { Cassette } from '../../toolkit/cassette/types.js';
import { startModelServer } from '../../toolkit/model-server/model-server.js';
import type { Normalisation } from '../../toolkit/normalisation/types.js';
import { createRecordingFetch, type RecordReport } from '../../toolkit/record/recording-fetch.js';
import { createReplayingFetch, type ReplayReport } from '../../toolkit/replay/replaying-fetch.js';
import { seededRandom } from './seeded-random.js';

/**
 * Shared fixture of the framework proofs: record a framework's run against `nestcast model-server`
 * through the recording fetch, then replay it many times. Both sides put a random pause before
 * every call, so concurrent sub-agents reach the fetch in a different order in every run; the code
 * under test names no lineage anywhere.
 */
export interface FrameworkRun<T> {
  (fetch: typeof globalThis.fetch, baseURL: string): Promise<T>;
}

/** A fetch that waits 0–`max` ms (from `random`) before passing each call on. */
export function jitteringFetch(inner: typeof globalThis.fetch, random: () => number, max = 6): typeof globalThis.fetch {
  return async (input, init) => {
    await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * (max + 1))));
    return inner(input, init);
  };
}

export interface Recorded<T> {
  readonly result: T;
  readonly cassette: Cassette;
  readonly report: RecordReport;
  /** The sessions the model server served, as it derived them. */
  readonly served: ReplayReport['sessions'];
}

export async function recordFramework<T>(options: {
  readonly script: AuthoredScript;
  readonly dir: string;
  readonly run: FrameworkRun<T>;
  readonly seed: number;
  readonly normalise?: Normalisation;
}): Promise<Recorded<T>> {
  const server = await startModelServer({ scripts: options.script, eventDelay: 1 });
  try {
    const recording = createRecordingFetch({
      fetch: jitteringFetch(globalThis.fetch, seededRandom(options.seed)),
      ...(options.normalise ? { normalise: options.normalise } : {}),
    });
    const result = await options.run(recording, `${server.url}/v1`);
    await recording.save(options.dir);
    return {
      result,
      cassette: await loadCassette(options.dir),
      report: recording.report(),
      served: server.report().sessions,
    };
  } finally {
    await server.close();
  }
}

export interface ReplayFrameworkOptions<T> {
  readonly cassette: Cassette;
  readonly run: FrameworkRun<T>;
  readonly times: number;
  readonly seed: number;
  readonly normalise?: Normalisation;
}

/** Replays `times` runs from one cassette, each with its own jitter seed; returns what each run produced and its failures. */
export async function replayFramework<T>(
  options: ReplayFrameworkOptions<T>,
): Promise<{ results: T[]; failures: string[] }> {
  const results: T[] = [];
  const failures: string[] = [];
  for (let i = 0; i < options.times; i++) {
    const replay = createReplayingFetch(options.cassette, options.normalise ? { normalise: options.normalise } : {});
    try {
      results.push(
        await options.run(jitteringFetch(replay, seededRandom(options.seed + i)), 'http://model.nestcast.invalid/v1'),
      );
      replay.assertConsumed();
    } catch (error) {
      failures.push(`replay ${i} (seed ${options.seed + i}): ${(error as Error).message}`);
    }
  }
  return { results, failures };
}

/** What every framework proof ends with: `times` replays (`replayFramework`), none failed, each produced `expected`. */
export async function expectReplaysToGive<T>(expected: T, options: ReplayFrameworkOptions<T>): Promise<void> {
  const { results, failures } = await replayFramework(options);
  expect(failures).toEqual([]);
  expect(new Set(results)).toEqual(new Set([expected]));
}
