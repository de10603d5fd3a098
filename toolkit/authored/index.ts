export { compileScript } from './compile-script.js';
export { authoredScriptSchema } from './script-schema.js';
export { scriptFingerprint } from './script-fingerprint.js';
export type { AuthoredReply, AuthoredScript, AuthoredTurn } from './types.js';
