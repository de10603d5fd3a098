export { exportRecording, EXPORT_FORMATS, type ExportFormat } from './export-recording.js';
export type { LeftOut } from './export-target.js';
export { FIXTURE_FORMATS, type FixtureFormat } from './http-exchange.js';
export { importFixture } from './import-fixture.js';
export { InteropError } from './interop-error.js';
export { pollyMatchRequestsBy } from './polly-identity.js';
