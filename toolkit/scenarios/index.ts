export { defineScenario } from './define-scenario.js';
export type {
  HarnessScenario,
  ProgramContext,
  ProgramEndpoint,
  ProgramExpectations,
  ProgramScenario,
  ScenarioDefinition,
  ScenarioExpectations,
  ScenarioProgram,
  ScenarioProvider,
  ScenarioStep,
  Trigger,
} from './types.js';
export { runScenario, type RunScenarioOptions, type RunEvidence, type ScenarioReport } from './run-scenario.js';
export { listScenarios, loadScenarios } from './load-scenarios.js';
export { narrowScenarios, parseShard, selectScenarios } from './select-scenarios.js';
export { ScenarioError } from './scenario-error.js';
export { childModelFromEnv } from './child-model.js';
export { CHILD_ENV } from '../../harness/acp-agent/child-env.js';
