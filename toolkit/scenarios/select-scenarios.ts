import { ScenarioError } from './scenario-error.js';

/**
 * Which of the `known` scenario names run, decided on names alone so that nothing is imported
 * before the choice is made: the named ones (all when none is named), in a stable order. A name
 * that is not there is refused with the list of known ones.
 */
export function selectScenarios(known: readonly string[], names: readonly string[], dir: string): string[] {
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new ScenarioError(
      'UNKNOWN_SCENARIO',
      `Unknown scenario${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `"${name}"`).join(', ')} in ${dir}. Known: ${known.join(', ') || 'none'}.`,
    );
  }
  return names.length > 0 ? [...new Set(names)] : [...known];
}
