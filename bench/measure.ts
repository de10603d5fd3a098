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
  /**
   * CPU time (user + system, every thread of the process) per unit, from `process.cpuUsage` around
   * each sample: on a machine shared with other work it moves less than wall time, which also
   * counts the time other processes held the cores. Set by `compare`.
   */
  readonly cpu?: Omit<Stats, 'cpu' | 'failure'>;
  /** Set by `compare` when the subject threw: the reason, and the figures are NaN. */
  readonly failure?: string;
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
 * lands on every subject alike instead of on whichever ran last. Each sample records wall time
 * and CPU time alike for every subject. A subject that throws is dropped from later rounds and
 * reported with its reason (`Stats.failure`): one peer's failure must not hide the others' figures.
 */
export async function compare(subjects: readonly Subject[], options: CompareOptions): Promise<Map<string, Stats>> {
  const failures = new Map<string, string>();
  const attempt = async (subject: Subject, work: () => Promise<void>): Promise<void> => {
    if (failures.has(subject.name)) return;
    try {
      await work();
    } catch (error) {
      failures.set(subject.name, reasonOf(error));
    }
  };
  for (const subject of subjects)
    await attempt(subject, async () => {
      for (let i = 0; i < options.warmup; i++) await subject.run();
    });
  const wall = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  const cpu = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < subjects.length; k++) {
      const subject = subjects[(round + k) % subjects.length] as Subject;
      await attempt(subject, async () => {
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        for (let i = 0; i < options.batch; i++) await subject.run();
        const elapsed = performance.now() - started;
        const used = process.cpuUsage(cpuBefore);
        wall.get(subject.name)?.push(elapsed / options.batch);
        cpu.get(subject.name)?.push((used.user + used.system) / 1000 / options.batch);
      });
    }
  }
  return new Map(
    subjects.map((subject): [string, Stats] => {
      const failure = failures.get(subject.name);
      if (failure !== undefined) return [subject.name, { ...stats([]), failure }];
      return [subject.name, { ...stats(wall.get(subject.name) ?? []), cpu: stats(cpu.get(subject.name) ?? []) }];
    }),
  );
}

/** What a subject threw, down its chain of causes (`fetch failed: read ECONNRESET`), first lines only. */
function reasonOf(error: unknown): string {
  const lines: string[] = [];
  for (let cause = error; cause !== undefined && lines.length < 4;) {
    if (!(cause instanceof Error)) {
      lines.push(String(cause));
      break;
    }
    lines.push(cause.message.split('\n')[0] ?? '');
    cause = cause.cause;
  }
  return lines.join(': ');
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
