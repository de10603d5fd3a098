import { performance } from 'node:perf_hooks';

/** One thing being timed: `run` does one unit of work (one model call, one scenario...). */
export interface Subject {
  readonly name: string;
  run(): Promise<unknown>;
}

export interface Stats {
  /** Per unit of work, in milliseconds. */
  readonly median: number;
  readonly p10: number;
  readonly p90: number;
  readonly samples: number;
}

export interface CompareOptions {
  /** Units of work per subject before any sample is kept (JIT, caches, connection pools). */
  readonly warmup: number;
  /** Samples per subject; each sample is the mean of `batch` consecutive units. */
  readonly rounds: number;
  /** Units per sample: keeps timer resolution and scheduling noise small next to the work. */
  readonly batch: number;
}

/**
 * Times subjects side by side: warm every subject, then take samples round-robin, rotating the
 * order each round, so drift of the machine (thermal, other processes, GC pressure building up)
 * lands on every subject alike instead of on whichever ran last.
 */
export async function compare(subjects: readonly Subject[], options: CompareOptions): Promise<Map<string, Stats>> {
  for (const subject of subjects) for (let i = 0; i < options.warmup; i++) await subject.run();
  const samples = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < subjects.length; k++) {
      const subject = subjects[(round + k) % subjects.length] as Subject;
      const started = performance.now();
      for (let i = 0; i < options.batch; i++) await subject.run();
      samples.get(subject.name)?.push((performance.now() - started) / options.batch);
    }
  }
  return new Map([...samples].map(([name, values]) => [name, stats(values)]));
}

/** Median and spread of samples (milliseconds). */
export function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p10: quantile(sorted, 0.1),
    p90: quantile(sorted, 0.9),
    samples: sorted.length,
  };
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (at - low);
}

/** The stats of `name`, which `compare` was given. */
export function statsOf(results: ReadonlyMap<string, Stats>, name: string): Stats {
  const found = results.get(name);
  if (!found) throw new Error(`no measurement named "${name}"`);
  return found;
}
