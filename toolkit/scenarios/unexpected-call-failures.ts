import type { CassetteCall } from '../cassette/types.js';
import type { ScenarioDefinition } from './types.js';

/**
 * Recorded calls that failed where the scenario did not ask for a failure: a recording of a
 * refused connection or a 500 is not the conversation the scenario describes, so it is not saved.
 * Expected are the failures its script authors for that call (httpError, networkError, hang),
 * aborts (the run itself cancelled the call), and any failure in a lineage listed in
 * `expect.callFailures`.
 */
export function unexpectedCallFailures(
  scenario: ScenarioDefinition,
  calls: Readonly<Record<string, readonly CassetteCall[]>>,
): string[] {
  const problems: string[] = [];
  const allowed = new Set(scenario.expect?.callFailures ?? []);
  for (const [lineage, list] of Object.entries(calls)) {
    if (allowed.has(lineage)) continue;
    list.forEach((call, index) => {
      const response = call.response;
      if (!('error' in response) || response.error.kind === 'aborted') return;
      const authored = scenario.script?.lineages[lineage]?.[index];
      if (authored !== undefined && ('httpError' in authored || 'networkError' in authored || 'hang' in authored))
        return;
      const what =
        response.error.kind === 'http'
          ? `HTTP ${response.error.status}`
          : `${response.error.kind} error (${response.error.message})`;
      problems.push(
        `call ${index + 1} of session "${lineage}" failed with ${what}, which the scenario does not expect; fix the endpoint or key and record again, or list "${lineage}" in expect.callFailures if the failure is the point`,
      );
    });
  }
  return problems;
}
