// `nestcast/vitest`: nestcast in vitest. The public list, reviewed; docs/api.md lists it, and a test holds the
// two together.

// A scenario as a vitest test.
export { scenarioTest } from './scenario-test.js';
export { expectScenarioToPass } from './scenario-test.js';
export type { ScenarioTestOptions } from './scenario-test.js';

// A record/replay cassette per test, for your own client.
export { cassetteTest } from './cassette-test.js';
export { withCassette } from './cassette-test.js';
export { defaultCassetteDir } from './cassette-test.js';
export type { CassetteTestOptions } from './cassette-test.js';
export { openCassette } from '../cassette-session/open-cassette.js';
export type { CassetteOptions } from '../cassette-session/open-cassette.js';
export type { CassetteSession } from '../cassette-session/open-cassette.js';
export { CASSETTE_MODES } from '../cassette-session/cassette-mode.js';
export { RECORD_VARIABLE } from '../cassette-session/cassette-mode.js';
export type { CassetteMode } from '../cassette-session/cassette-mode.js';
