/**
 * Item 10: 1,000 scenarios (copies of the repository's in-process scenarios, renamed, with their
 * recordings, in a temp folder) replayed by the built CLI serially (`--workers 1`) and with
 * `--workers 2`, alternating. Goal: at least 1.7x faster with 2 workers on 2 cores, the whole run
 * under 10 s. Beside them, two serial `--shard` halves started together: the speed-up two
 * processes of this code get on this machine with no pool at all, the ceiling for `--workers 2`.
 * Part of `npm run bench`; alone (after `npm run build`):
 *
 *   npx tsx bench/many-scenarios.ts [scenarios=1000] [runs=2]
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { listScenarios, loadScenarios } from '../toolkit/scenarios/load-scenarios.js';
import { copyScenario } from '../test/support/scenario-copies.js';
import { makeTempDir, removeTempDir } from '../test/support/temp-dir.js';
import { stats, type Stats } from './measure.js';
import { formatTable, ratioRow, type Row } from './table.js';

export const SPEED_UP_GOAL = 1.7;
export const WHOLE_RUN_GOAL_MS = 10_000;
const CLI = resolve('dist/cli.js');

interface RunSample {
  readonly wallMs: number;
  /** Each scenario's own time, from the summary table. */
  readonly scenarioMs: readonly number[];
}

type Dirs = { readonly scenariosDir: string; readonly recordingsDir: string };

/** One `nestcast run`; settles with its stdout once every selected scenario passed. */
async function runCli(dirs: Dirs, extra: readonly string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [CLI, 'run', '--scenarios', dirs.scenariosDir, '--recordings', dirs.recordingsDir, ...extra],
    { env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 << 20 },
  );
  if (!/^\d+ scenarios passed$/m.test(stdout)) {
    throw new Error(`run ${extra.join(' ')}: not every scenario passed:\n${stdout.slice(-2_000)}`);
  }
  return stdout;
}

async function runOnce(workers: number, dirs: Dirs, count: number): Promise<RunSample> {
  const started = performance.now();
  const stdout = await runCli(dirs, ['--workers', String(workers)]);
  const wallMs = performance.now() - started;
  if (!stdout.includes(`${count} scenarios passed`)) throw new Error(`--workers ${workers}: ran fewer than ${count}`);
  const scenarioMs = [...stdout.matchAll(/^\S+ +\d+ +\d+ +pass +(\d+) ms$/gm)].map((match) => Number(match[1]));
  return { wallMs, scenarioMs };
}

/**
 * The machine's own ceiling for two cores: two serial runs of half the scenarios each
 * (`--shard 1/2` and `--shard 2/2`), started together, as two CI jobs on one machine would be.
 * No pool, no parent; what two processes of this code gain here bounds what workers can.
 */
async function runShardPair(dirs: Dirs): Promise<number> {
  const started = performance.now();
  await Promise.all(['1/2', '2/2'].map((shard) => runCli(dirs, ['--workers', '1', '--shard', shard])));
  return performance.now() - started;
}

export async function benchManyScenarios(count = 1_000, runs = 2): Promise<Row[]> {
  if (!existsSync(CLI)) throw new Error(`no built CLI at ${CLI}; run \`npm run build\` first`);
  const root = await makeTempDir('bench-many-');
  try {
    const dirs = { scenariosDir: join(root, 'scenarios'), recordingsDir: join(root, 'recordings') };
    await mkdir(dirs.scenariosDir, { recursive: true });
    await mkdir(dirs.recordingsDir, { recursive: true });
    // ACP scenarios start two processes each: item 6 measures those; these are the in-process ones.
    const inProcess = (await loadScenarios('scenarios', await listScenarios('scenarios')))
      .filter((scenario) => !scenario.providers?.some((provider) => provider.kind === 'acp'))
      .map((scenario) => scenario.name);
    for (let i = 0; i < count; i++) {
      const from = inProcess[i % inProcess.length] as string;
      await copyScenario(from, `${from}-${String(i).padStart(4, '0')}`, dirs);
    }
    const serial: RunSample[] = [];
    const parallel: RunSample[] = [];
    const shardPairs: number[] = [];
    const load: number[] = [];
    for (let run = 0; run < runs; run++) {
      load.push(loadavg()[0] as number);
      // Alternating, each order once per pair, so drift of the shared machine lands on both.
      if (run % 2 === 0) {
        serial.push(await runOnce(1, dirs, count));
        parallel.push(await runOnce(2, dirs, count));
        shardPairs.push(await runShardPair(dirs));
      } else {
        shardPairs.push(await runShardPair(dirs));
        parallel.push(await runOnce(2, dirs, count));
        serial.push(await runOnce(1, dirs, count));
      }
    }
    load.push(loadavg()[0] as number);
    const wall = (samples: readonly RunSample[]): Stats => stats(samples.map((sample) => sample.wallMs));
    const perScenario = (samples: readonly RunSample[]): Stats => stats(samples.flatMap((sample) => sample.scenarioMs));
    const serialWall = wall(serial);
    const parallelWall = wall(parallel);
    const shardPairWall = stats(shardPairs);
    const label = `${count.toLocaleString('en-US')} scenarios`;
    const loadNote = `load avg ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}`;
    return [
      { item: '10 run/whole', subject: `${label}, --workers 1`, stats: serialWall, unit: 'ms', reference: 'serial' },
      ratioRow(
        {
          item: '10 run/whole',
          subject: `${label}, --workers 2`,
          stats: parallelWall,
          unit: 'ms',
          reference: 'serial',
          goal: `<= ${(1 / SPEED_UP_GOAL).toFixed(2)}x serial (${SPEED_UP_GOAL}x faster)`,
        },
        serialWall,
        1 / SPEED_UP_GOAL,
      ),
      ratioRow(
        {
          item: '10 run/whole',
          subject: `${label}, two --shard halves at once (the machine's ceiling)`,
          stats: shardPairWall,
          unit: 'ms',
          reference: 'serial',
        },
        serialWall,
      ),
      // How close the pool comes to that ceiling: 1.00x would be two workers as fast as two processes with no pool.
      ratioRow(
        {
          item: '10 run/whole',
          subject: `${label}, --workers 2 against the two halves`,
          stats: parallelWall,
          unit: 'ms',
          reference: 'shard pair',
        },
        shardPairWall,
      ),
      {
        item: '10 run/whole',
        subject: `${label}, --workers 2 (${loadNote})`,
        stats: parallelWall,
        unit: 'ms',
        goal: `< ${WHOLE_RUN_GOAL_MS / 1000} s`,
        met: parallelWall.median < WHOLE_RUN_GOAL_MS,
      },
      { item: '10 run/per scenario', subject: '--workers 1', stats: perScenario(serial), unit: 'ms' },
      { item: '10 run/per scenario', subject: '--workers 2', stats: perScenario(parallel), unit: 'ms' },
    ];
  } finally {
    await removeTempDir(root);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [count, runs] = process.argv.slice(2).map(Number);
  process.stdout.write(`${formatTable(await benchManyScenarios(count || undefined, runs || undefined))}\n`);
}
