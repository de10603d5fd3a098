export { expectScenarioToPass, scenarioTest, type ScenarioTestOptions } from './scenario-test.js';
