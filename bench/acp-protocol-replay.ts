import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenarios } from '../toolkit/scenarios/load-scenarios.js';
import { runScenario } from '../toolkit/scenarios/run-scenario.js';
import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';
import inProcessTwin from './fixtures/python-child-in-process.scenario.js';
import { compare, statsOf, type Subject } from './measure.js';
import type { Row } from './table.js';

export const PROTOCOL_REPLAY_GOAL_RATIO = 1.5;

/**
 * Item 8: a scenario whose ACP child (the Python agent) replays from its protocol cassette,
 * against the same conversation with an in-process child (goal <= 1.5x), beside acp-child, the
 * ACP replay that spawns `nestcast acp-agent` and replays its model calls in the child.
 */
export async function benchAcpProtocolReplay(): Promise<Row[]> {
  const recordingsDir = await mkdtemp(join(tmpdir(), 'nestcast-bench-acp-'));
  try {
    const recorded = await runScenario(inProcessTwin, { mode: 'record', recordingsDir });
    if (!recorded.passed)
      throw new Error(`recording ${inProcessTwin.name} failed: ${JSON.stringify(recorded.failures)}`);
    const committed = await loadScenarios('scenarios');
    const byName = (name: string): ScenarioDefinition => {
      const found = committed.find((scenario) => scenario.name === name);
      if (!found) throw new Error(`scenario ${name} is missing from scenarios/`);
      return found;
    };
    const reference = replayOf(inProcessTwin, recordingsDir);
    const protocol = replayOf(byName('acp-python-child'), 'recordings');
    const spawning = replayOf(byName('acp-child'), 'recordings');
    const results = await compare([reference, protocol, spawning], { warmup: 2, rounds: 10, batch: 1 });
    const base = statsOf(results, reference.name);
    const row = (subject: Subject, label: string, goal?: boolean): Row => {
      const stats = statsOf(results, subject.name);
      const ratio = stats.median / base.median;
      return {
        item: '8 acp replay',
        subject: label,
        stats,
        unit: 'ms',
        ratio,
        reference: 'in-process',
        ...(goal
          ? { goal: `<= ${PROTOCOL_REPLAY_GOAL_RATIO}x in-process`, met: ratio <= PROTOCOL_REPLAY_GOAL_RATIO }
          : {}),
      };
    };
    return [
      { item: '8 acp replay', subject: 'in-process child (spawn provider)', stats: base, unit: 'ms' },
      row(protocol, 'ACP child from its protocol cassette (no process)', true),
      row(spawning, 'ACP child spawned (acp-child, nestcast acp-agent)'),
    ];
  } finally {
    await rm(recordingsDir, { recursive: true, force: true });
  }
}

function replayOf(scenario: ScenarioDefinition, recordingsDir: string): Subject {
  return {
    name: scenario.name,
    async run() {
      const report = await runScenario(scenario, { mode: 'replay', recordingsDir });
      if (!report.passed)
        throw new Error(
          `scenario ${scenario.name} failed in replay: ${report.failures.map((f) => f.message).join('\n')}`,
        );
    },
  };
}
