export { defineScenario } from './define-scenario.js';
export type {
  ScenarioDefinition,
  ScenarioExpectations,
  ScenarioMode,
  ScenarioProvider,
  ScenarioStep,
  ScenarioSubagentTool,
  Trigger,
} from './types.js';
export { runScenario, assertScenarioPassed, type RunScenarioOptions, type RunEvidence, type ScenarioFailure, type ScenarioReport } from './run-scenario.js';
export { listScenarios, loadScenarios, SCENARIO_SUFFIX, SCENARIO_SUFFIXES } from './load-scenarios.js';
export { narrowScenarios, parseShard, selectScenarios, type ScenarioSelection, type Shard } from './select-scenarios.js';
export { ScenarioError, type ScenarioErrorCode } from './scenario-error.js';
export { childModelFromEnv, type ChildModel } from './child-model.js';
export { CHILD_ENV } from './child-variables.js';
