export { resolveCassetteMode, type CassetteMode } from './cassette-mode.js';
export { openCassette, type CassetteOptions, type CassetteSession } from './open-cassette.js';
