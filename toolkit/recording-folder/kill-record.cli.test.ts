import { readdirSync, watch } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuiltCli, runBuiltCli } from '../../test/support/built-cli.js';
import { makeScenarioProject } from '../../test/support/scenario-project.js';
import { listFiles, makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { withoutTiming } from '../cassette/call-lines.js';
import { descendantProcesses, type DescendantProcess } from '../cli/workers/descendant-processes.js';
import { recoverInterruptedSwaps } from './recover-swaps.js';
import { seededRandom } from '../../test/support/seeded-random.js';

/** `KILL_TRIES=500 KILL_SEED=42 npx vitest run toolkit/recording-folder/kill-record.cli.test.ts` for a longer or repeated run. */
const TRIES = Math.max(50, Number(process.env['KILL_TRIES'] ?? 50) || 50);
const SEED = Number(process.env['KILL_SEED'] ?? Math.floor(Math.random() * 2 ** 31));

/** Several sessions, so a save writes several files: a parent and three children, each answering `ANSWER`. */
const SCENARIO = `
const answer = process.env.ANSWER ?? 'old';
const child = (id) => ({ id, name: 'subagent', args: { description: 'part ' + id, prompt: 'Do part ' + id + '.' } });
export default {
  name: 'many',
  description: 'a parent and three children',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn' }],
  steps: [{ prompt: 'Split the work.' }],
  script: {
    lineages: {
      main: [{ toolCalls: [child('c1'), child('c2'), child('c3')] }, { text: 'All parts: ' + answer }],
      'main/c1': [{ text: 'one ' + answer }],
      'main/c2': [{ text: 'two ' + answer }],
      'main/c3': [{ text: 'three ' + answer }],
    },
  },
};
`;

async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of await listFiles(dir)) files.set(file, await readFile(join(dir, file), 'utf8'));
  return files;
}

/**
 * Two recordings of the new version differ in their stream timings and recordedAt (the old one
 * is restored byte for byte): the version is compared without them, everything else byte for byte.
 */
function version(files: ReadonlyMap<string, string>): string {
  return JSON.stringify(
    [...files].map(([file, text]) => {
      if (/\/calls\/.*\.jsonl$/.test(file)) return [file, withoutTiming(text)];
      if (file.endsWith('meta.json')) return [file, text.replace(/"recordedAt": "[^"]*"/, '')];
      return [file, text];
    }),
  );
}

async function restore(dir: string, files: ReadonlyMap<string, string>): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  for (const [file, text] of files) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
}

/** Tries run this many at a time, each in its own copy of the project. */
const PARALLEL = Math.max(1, Number(process.env['KILL_PARALLEL'] ?? 3) || 3);

type KillPoint = 'anywhere' | 'while building' | 'at the swap';

interface Trial {
  readonly signal: NodeJS.Signals;
  readonly point: KillPoint;
  readonly delay: number;
}

/** Each attempt's choices come from the seed and its number alone, so a failing attempt replays alone. */
function trial(attempt: number, fullRunMs: number): Trial {
  const next01 = seededRandom(SEED + attempt * 7919);
  const signal: NodeJS.Signals = next01() < 0.3 ? 'SIGTERM' : 'SIGKILL';
  const roll = next01();
  const point: KillPoint = roll < 0.3 ? 'anywhere' : roll < 0.6 ? 'while building' : 'at the swap';
  const delay = point === 'anywhere' ? next01() * fullRunMs : point === 'while building' ? next01() * 20 : next01() * 2;
  return { signal, point, delay };
}

/** Starts `record`, and kills it `delay` ms after its point: the start, the staging folder appearing, or the swap journal appearing. */
async function recordKilled(cwd: string, tmp: string, { signal, point, delay }: Trial): Promise<void> {
  const recordings = join(cwd, 'recordings');
  const run = runBuiltCli(['record'], { cwd, env: { ANSWER: 'new', TMPDIR: tmp } });
  let timer: NodeJS.Timeout | undefined;
  let armed = false;
  /** The record process's worker and what runs below it, listed as it is killed. */
  let below: readonly DescendantProcess[] = [];
  const kill = () => {
    if (armed) return;
    armed = true;
    timer = setTimeout(() => {
      below = run.child.pid === undefined ? [] : descendantProcesses(run.child.pid);
      run.child.kill(signal);
    }, delay);
  };
  const watchers = [] as ReturnType<typeof watch>[];
  if (point === 'anywhere') kill();
  else {
    watchers.push(
      watch(recordings, (_event, name) => {
        if (name !== '.nestcast-staging' || armed) return;
        if (point === 'while building') return kill();
        try {
          watchers.push(watch(join(recordings, name), (_e, entry) => entry?.endsWith('.swap.json') && kill()));
        } catch {
          // Gone again already: the save finished; nothing to kill in.
        }
      }),
    );
  }
  await run;
  for (const watcher of watchers) watcher.close();
  clearTimeout(timer);
  // Its worker, orphaned by a SIGKILL, kills itself once it sees so: the next run starts after that.
  await gone(below);
}

/** Resolves once none of `processes` runs any more. */
async function gone(processes: readonly DescendantProcess[]): Promise<void> {
  const running = () =>
    processes.some(({ pid }) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
  while (running()) await new Promise((resolve) => setTimeout(resolve, 50));
}

let project: string;
let tmp: string;
beforeAll(async () => {
  await ensureBuiltCli();
  project = await makeScenarioProject({ many: SCENARIO });
  tmp = await makeTempDir('kill-tmp-');
}, 180_000);
afterAll(async () => {
  await removeTempDir(project);
  await removeTempDir(tmp);
});

describe('a recording folder is replaced whole or not at all', () => {
  test(`killing a real record process at ${TRIES} seeded random points (seed ${SEED}) leaves the old folder or the new one, byte for byte, and no temp file in recordings/`, async () => {
    const recordings = join(project, 'recordings');
    expect((await runBuiltCli(['record'], { cwd: project, env: { ANSWER: 'old' } })).code).toBe(0);
    const old = await snapshot(recordings);
    const started = performance.now();
    expect((await runBuiltCli(['record'], { cwd: project, env: { ANSWER: 'new' } })).code).toBe(0);
    const fullRunMs = performance.now() - started;
    const next = await snapshot(recordings);
    expect(next).not.toEqual(old);

    const outcomes = { old: 0, new: 0, repaired: 0, sigterm: 0 };
    const lanes = await Promise.all(
      Array.from({ length: PARALLEL }, async (_, lane) => {
        const cwd = await makeScenarioProject({ many: SCENARIO });
        const laneTmp = join(tmp, `lane-${lane}`);
        return { cwd, tmp: laneTmp };
      }),
    );
    let attempts = 0;
    await Promise.all(
      lanes.map(async (lane) => {
        const laneRecordings = join(lane.cwd, 'recordings');
        const laneFolder = join(laneRecordings, 'many');
        for (let attempt = attempts++; attempt < TRIES; attempt = attempts++) {
          const chosen = trial(attempt, fullRunMs);
          await restore(laneRecordings, old);
          await rm(lane.tmp, { recursive: true, force: true });
          await mkdir(lane.tmp, { recursive: true });
          await recordKilled(lane.cwd, lane.tmp, chosen);

          // What the next run does first.
          if (recoverInterruptedSwaps(laneFolder).length > 0) outcomes.repaired++;
          const after = await snapshot(laneRecordings);
          const same =
            JSON.stringify([...after]) === JSON.stringify([...old])
              ? 'old'
              : version(after) === version(next)
                ? 'new'
                : 'mixed';
          const odd = [...new Set([...after.keys(), ...next.keys()])].filter(
            (file) => after.get(file) !== old.get(file),
          );
          const what = `attempt ${attempt} (KILL_SEED=${SEED}, ${chosen.signal} ${Math.round(chosen.delay)} ms after ${chosen.point === 'anywhere' ? 'the start' : chosen.point === 'while building' ? 'the save began' : 'the swap began'})`;
          expect(same, `${what}: ${relative(lane.cwd, laneFolder)} is neither version: ${odd.join(', ')}`).not.toBe(
            'mixed',
          );
          outcomes[same as 'old' | 'new']++;
          expect(readdirSync(laneRecordings), `${what}: left something beside the recording`).toEqual(['many']);
          if (chosen.signal === 'SIGTERM') {
            outcomes.sigterm++;
            expect(
              readdirSync(lane.tmp).filter((name) => name.startsWith('nestcast-')),
              `${what}: SIGTERM left work folders`,
            ).toEqual([]);
          }
        }
        await removeTempDir(lane.cwd);
      }),
    );
    console.log(
      `kill-record seed ${SEED}: ${TRIES} kills, ${outcomes.old} left the old folder, ${outcomes.new} the new one, ${outcomes.repaired} repaired an interrupted swap, ${outcomes.sigterm} by SIGTERM`,
    );
  }, 600_000);
});
