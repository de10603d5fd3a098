export { compileScript, DEFAULT_AUTHORED_MODEL, type CompileOptions } from './compile-script.js';
export { authoredScriptSchema } from './script-schema.js';
export { scriptFingerprint } from './script-fingerprint.js';
export type { AuthoredHang, AuthoredHttpError, AuthoredNetworkError, AuthoredReply, AuthoredScript, AuthoredToolCall, AuthoredTurn } from './types.js';
