export { createReplayingFetch, type ReplayingFetch, type ReplayOptions, type ReplayReport, type ReplayWarning } from './replaying-fetch.js';
export type { Consumption } from './replay-messages.js';
export type { ReplayTiming } from './replay-timing.js';
