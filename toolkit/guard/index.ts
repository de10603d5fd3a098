export { installNetworkGuard, type NetworkEscape, type NetworkGuard, type NetworkGuardOptions } from './network-guard.js';
export { serveCassetteWithMsw, type MswCassette, type MswCassetteOptions } from './serve-cassette-with-msw.js';
export { scrubKeyLikeEnv } from './scrub-key-env.js';
