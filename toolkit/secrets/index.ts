// The one secret scan: every file nestcast writes passes through it before it is written.
export { assertNoSecrets, secretWriteGuard, writeFilesScanned, type PlannedFile, type ScanOptions } from './scan-before-write.js';
export { findSecret, type ScanFile, type SecretHit } from './find-secret.js';
export { knownSecrets, rememberSecret } from './known-secrets.js';
export { isKeyLikeEnvName, keyLikeEnvSecrets, KEY_LIKE_ENV_NAME } from './key-like-env.js';
export { CREDENTIAL_HEADERS, credentialSecrets } from './credential-headers.js';
export { stripUrlCredentials } from './strip-url-credentials.js';
export { MIN_SECRET_LENGTH, type LabelledSecret, type Secret } from './secret.js';
