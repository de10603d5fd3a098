export { exportRecording, EXPORT_FORMATS, type ExportFormat, type ExportOptions, type ExportResult } from './export-recording.js';
export type { LeftOut } from './export-target.js';
export type { HarLog } from './export-har.js';
export type { NockDefinitionOut } from './export-nock.js';
export { FIXTURE_FORMATS, type FixtureFormat } from './http-exchange.js';
export { importFixture, type ImportOptions, type ImportResult, type SkippedExchange } from './import-fixture.js';
export { InteropError, type InteropErrorCode } from './interop-error.js';
export { pollyMatchRequestsBy } from './polly-identity.js';
