// Record and replay: the cassette, the fetches that write and serve it, and the keyless guard.
export * from './canonical/index.js';
export * from './cassette/index.js';
export * from './lineage/index.js';
export * from './threading/index.js';
export * from './normalisation/index.js';
export * from './replay/index.js';
export * from './record/index.js';
export * from './guard/index.js';
export * from './cassette-session/index.js';
// ACP children at the protocol level: recorded exchanges replayed in process.
export * from './acp-cassette/index.js';

// The one secret scan every written file passes, and recording folders replaced whole.
export * from './secrets/index.js';
export * from './recording-folder/index.js';

// Scripting the model without a key.
export * from './authored/index.js';
export * from './model-server/index.js';

// Scenarios: the runner, harvest of every session log, transcripts.
export * from './scenarios/index.js';
export * from './harvest/index.js';

// Reports people look at: a self-contained HTML timeline of a run or a recording.
export * from './report/index.js';

// Property testing and the provider lifecycle fuzzer.
export * from './arbitraries/index.js';
export * from './fuzz/index.js';

// Fixtures of other tools: nock, Polly.js and HAR in, nock and HAR out.
export * from './interop/index.js';
