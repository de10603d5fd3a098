export { cassetteTest, defaultCassetteDir, withCassette, type CassetteTestOptions } from './cassette-test.js';
export { expectScenarioToPass, scenarioTest, type ScenarioTestOptions } from './scenario-test.js';
export { CASSETTE_MODES, openCassette, RECORD_VARIABLE, type CassetteMode, type CassetteOptions, type CassetteSession } from '../cassette-session/index.js';
