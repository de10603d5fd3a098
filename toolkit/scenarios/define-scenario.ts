import type { ScenarioDefinition } from './types.js';

/** Identity at run time; gives scenario files their types. */
export function defineScenario(definition: ScenarioDefinition): ScenarioDefinition {
  return definition;
}
