import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenarios } from '../toolkit/scenarios/load-scenarios.js';
import { runScenario, type RunScenarioOptions } from '../toolkit/scenarios/run-scenario.js';
import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';
import threeChildren from './fixtures/three-children.scenario.js';
import { compare, statsOf, type Subject } from './measure.js';
import type { Row } from './table.js';

export const THREE_CHILDREN_GOAL_MS = 30;

/**
 * Item 4: every in-process scenario of scenarios/ replayed end to end from its recording (temp
 * sessions root, replay, harvest, invariants, transcripts, expectations), side by side. The
 * three-children scenario of the goal is recorded first (against the keyless model server) into a
 * temp folder, then replayed like the others. Goal: three children under 30 ms.
 */
export async function benchScenarioReplay(): Promise<Row[]> {
  const recordingsDir = await mkdtemp(join(tmpdir(), 'nestcast-bench-recordings-'));
  try {
    const recorded = await runScenario(threeChildren, { mode: 'record', recordingsDir });
    if (!recorded.passed)
      throw new Error(`recording the three-children bench scenario failed: ${JSON.stringify(recorded.failures)}`);
    const inProcess = (await loadScenarios('scenarios')).filter(
      (scenario) => !scenario.providers?.some((provider) => provider.kind === 'acp'),
    );
    const subjects: Subject[] = [
      replayOf(threeChildren, { recordingsDir }),
      ...inProcess.map((scenario) => replayOf(scenario, { recordingsDir: 'recordings' })),
    ];
    const results = await compare(subjects, { warmup: 3, rounds: 15, batch: 1 });
    return subjects.map((subject) => {
      const stats = statsOf(results, subject.name);
      if (subject.name !== threeChildren.name) return { item: '4 scenario', subject: subject.name, stats, unit: 'ms' };
      return {
        item: '4 scenario',
        subject: `${subject.name} (bench/fixtures)`,
        stats,
        unit: 'ms',
        goal: `< ${THREE_CHILDREN_GOAL_MS} ms`,
        met: stats.median < THREE_CHILDREN_GOAL_MS,
      };
    });
  } finally {
    await rm(recordingsDir, { recursive: true, force: true });
  }
}

function replayOf(scenario: ScenarioDefinition, options: RunScenarioOptions): Subject {
  return {
    name: scenario.name,
    async run() {
      const report = await runScenario(scenario, { ...options, mode: 'replay' });
      if (!report.passed)
        throw new Error(
          `scenario ${scenario.name} failed in replay: ${report.failures.map((f) => f.message).join('\n')}`,
        );
    },
  };
}
