import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createRecordingFetch,
  createReplayingFetch,
  loadCassette,
  startModelServer,
  type AuthoredScript,
  type Cassette,
  type Normalisation,
  type RecordReport,
  type ReplayReport,
} from 'nestcast/toolkit';
import { expect } from 'vitest';

/**
 * The framework proofs' fixture, as a user of the packed tarball writes it (this project sees
 * nestcast only through `nestcast/toolkit`): record a framework's run against the model server
 * through the recording fetch, then replay it many times. Both sides pause a seeded random time
 * before every call, so concurrent sub-agents reach the fetch in a different order in every run;
 * the code under test names no lineage anywhere. The root project's test/support/framework-cassette.ts
 * is the same fixture over the sources.
 */
export interface FrameworkRun<T> {
  (fetch: typeof globalThis.fetch, baseURL: string): Promise<T>;
}

/** mulberry32: a failing replay is reproduced from the seed its failure names. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function jitteringFetch(inner: typeof globalThis.fetch, random: () => number, max = 6): typeof globalThis.fetch {
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
  readonly run: FrameworkRun<T>;
  readonly seed: number;
  readonly normalise?: Normalisation;
}): Promise<Recorded<T>> {
  const dir = await mkdtemp(join(tmpdir(), 'nestcast-ecosystem-'));
  const server = await startModelServer({ scripts: options.script, eventDelay: 1 });
  try {
    const recording = createRecordingFetch({
      fetch: jitteringFetch(globalThis.fetch, seededRandom(options.seed)),
      ...(options.normalise ? { normalise: options.normalise } : {}),
    });
    const result = await options.run(recording, `${server.url}/v1`);
    await recording.save(dir);
    return {
      result,
      cassette: await loadCassette(dir),
      report: recording.report(),
      served: server.report().sessions,
    };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** `times` replays from one cassette, each with its own jitter seed: none fails, each produces `expected`. */
export async function expectReplaysToGive<T>(
  expected: T,
  options: {
    readonly cassette: Cassette;
    readonly run: FrameworkRun<T>;
    readonly times: number;
    readonly seed: number;
  },
): Promise<void> {
  const results: T[] = [];
  const failures: string[] = [];
  for (let i = 0; i < options.times; i++) {
    const replay = createReplayingFetch(options.cassette);
    try {
      results.push(
        await options.run(jitteringFetch(replay, seededRandom(options.seed + i)), 'http://model.nestcast.invalid/v1'),
      );
      replay.assertConsumed();
    } catch (error) {
      failures.push(`replay ${i} (seed ${options.seed + i}): ${(error as Error).message}`);
    }
  }
  expect(failures).toEqual([]);
  expect(new Set(results)).toEqual(new Set([expected]));
}

/** The lineages a recording holds, sorted: `main` and one `main/<tool-call id>` per sub-agent. */
export function lineages(recorded: Recorded<unknown>): string[] {
  return Object.keys(recorded.cassette.calls).sort();
}
