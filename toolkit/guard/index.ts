export { installNetworkGuard, type NetworkGuard } from './network-guard.js';
export { serveCassetteWithMsw } from './serve-cassette-with-msw.js';
export { scrubKeyLikeEnv } from './scrub-key-env.js';
