import { checkProviderLifecycle } from '../toolkit/fuzz/check-provider-lifecycle.js';
import { mockFactory } from '../toolkit/fuzz/factories/mock-factory.js';
import { forkFactory, spawnFactory } from '../toolkit/fuzz/factories/in-process-factories.js';
import type { ProviderFactory } from '../toolkit/fuzz/types.js';
import { stats } from './measure.js';
import type { Row } from './table.js';

const SCHEDULES_PER_SAMPLE = 40;
const ROUNDS = 5;

/**
 * Item 5: lifecycle schedules checked per second, and the CPU time one schedule costs (less swayed
 * by a busy machine than the wall rate: what the checks themselves cost), per provider factory;
 * rounds interleaved, after one warm-up round. No goal.
 */
export async function benchFuzzThroughput(): Promise<Row[]> {
  const factories: readonly ProviderFactory[] = [mockFactory, spawnFactory, forkFactory];
  const rates = new Map<string, number[]>(factories.map((factory) => [factory.name, []]));
  const cpu = new Map<string, number[]>(factories.map((factory) => [factory.name, []]));
  for (let round = -1; round < ROUNDS; round++) {
    for (const factory of factories) {
      const before = process.cpuUsage();
      const report = await checkProviderLifecycle(factory, { runs: SCHEDULES_PER_SAMPLE, seed: 1000 + round });
      const used = process.cpuUsage(before);
      // 40 schedules need not reach every path the provider claims (a coverage failure): a broken promise is what must not happen.
      if (!report.ok && report.failure?.kind !== 'coverage')
        throw new Error(`the lifecycle suite failed on ${factory.name} while benchmarking (seed ${report.seed})`);
      if (round < 0) continue;
      rates.get(factory.name)?.push((report.schedules / report.elapsedMs) * 1000);
      cpu.get(factory.name)?.push((used.user + used.system) / 1000 / report.schedules);
    }
  }
  return factories.flatMap((factory) => [
    {
      item: '5 fuzz',
      subject: `${factory.name} schedules/s`,
      stats: stats(rates.get(factory.name) ?? []),
      unit: '/s' as const,
    },
    {
      item: '5 fuzz',
      subject: `${factory.name} CPU per schedule`,
      stats: stats(cpu.get(factory.name) ?? []),
      unit: 'ms' as const,
    },
  ]);
}
