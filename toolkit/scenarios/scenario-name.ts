import { pathSegmentProblem } from '../validation/path-segment.js';
import { ScenarioError } from './scenario-error.js';

/**
 * A scenario's name becomes the folder of its recording (`recordings/<name>`) and the prefix of
 * its work folder, so it must be one safe folder name: SCENARIO_INVALID, before anything is
 * written, for one that is not (`..` would make the project folder itself the recording).
 */
export function checkScenarioName(name: unknown, where: string): void {
  const problem = typeof name === 'string' ? pathSegmentProblem(name) : 'it is not a string';
  if (problem === undefined) return;
  throw new ScenarioError(
    'SCENARIO_INVALID',
    `${where} names a scenario ${JSON.stringify(name)}, which cannot be a folder name: ${problem}. ` +
      'A scenario name is the name of its recording folder (recordings/<name>): rename the scenario and its file.',
  );
}
