// The one secret scan: every file nestcast writes passes through it before it is written.
export { assertNoSecrets, secretWriteGuard, writeFilesScanned } from './scan-before-write.js';
export { findSecret, type ScanFile } from './find-secret.js';
export { knownSecrets, rememberSecret } from './known-secrets.js';
export { isKeyLikeEnvName, keyLikeEnvSecrets } from './key-like-env.js';
export { credentialSecrets } from './credential-headers.js';
export { stripUrlCredentials } from './strip-url-credentials.js';
export { MIN_SECRET_LENGTH, type LabelledSecret, type Secret } from './secret.js';
