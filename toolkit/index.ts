// `nestcast/toolkit`: record and replay, scenarios, reports and interop. The public list, reviewed; everything
// else stays importable by path inside this repository. The fuzzer is `nestcast/fuzz`, the vitest helpers are
// `nestcast/vitest`. docs/api.md lists it, and a test holds the two together.

// Scenarios: define one, run it, and what a run says.
export { defineScenario } from './scenarios/define-scenario.js';
export type { ScenarioDefinition } from './scenarios/types.js';
export type { ScenarioExpectations } from './scenarios/types.js';
export type { ScenarioProvider } from './scenarios/types.js';
export type { ScenarioStep } from './scenarios/types.js';
export type { ScenarioSubagentTool } from './scenarios/types.js';
export type { Trigger } from './scenarios/types.js';
export type { HarnessScenario } from './scenarios/types.js';
export type { ProgramScenario } from './scenarios/types.js';
export type { ProgramContext } from './scenarios/types.js';
export type { ProgramEndpoint } from './scenarios/types.js';
export type { ProgramExpectations } from './scenarios/types.js';
export type { ScenarioProgram } from './scenarios/types.js';
export { runScenario } from './scenarios/run-scenario.js';
export { assertScenarioPassed } from './scenarios/run-scenario.js';
export type { RunScenarioOptions } from './scenarios/run-scenario.js';
export type { RunEvidence } from './scenarios/run-scenario.js';
export type { ScenarioFailure } from './scenarios/run-scenario.js';
export type { ScenarioReport } from './scenarios/run-scenario.js';
export { ScenarioError } from './scenarios/scenario-error.js';
export type { ScenarioErrorCode } from './scenarios/scenario-error.js';
export { HarvestError } from './harvest/harvest-error.js';
export type { HarvestErrorCode } from './harvest/harvest-error.js';

// Cassettes: the recorded model calls of every session, loaded, merged and saved.
export { loadCassette } from './cassette/load-cassette.js';
export type { LoadOptions } from './cassette/load-cassette.js';
export { saveCassette } from './cassette/save-cassette.js';
export type { SaveOptions } from './cassette/save-cassette.js';
export type { SaveResult } from './cassette/save-cassette.js';
export { mergeCassettes } from './cassette/merge-cassettes.js';
export { lineageFile } from './cassette/lineage-file.js';
export { lineageOfFile } from './cassette/lineage-file.js';
export { callLineSchema } from './cassette/schemas.js';
export { metaSchema } from './cassette/schemas.js';
export { CassetteError } from './errors/cassette-error.js';
export type { CassetteErrorCode } from './errors/cassette-error.js';
export type { BodyResponse } from './cassette/types.js';
export type { CallFailure } from './cassette/types.js';
export type { CallLine } from './cassette/types.js';
export type { Cassette } from './cassette/types.js';
export type { CassetteCall } from './cassette/types.js';
export type { CassetteMeta } from './cassette/types.js';
export type { PartialResponse } from './cassette/types.js';
export type { Provenance } from './cassette/types.js';
export type { RecordedAmbiguity } from './cassette/types.js';
export type { RecordedResponse } from './cassette/types.js';
export type { SseEvent } from './cassette/types.js';
export type { StoredRequest } from './cassette/types.js';
export type { StreamedResponse } from './cassette/types.js';

// Recording and replaying fetches, and the lineage scope that files a call under its session.
export { createRecordingFetch } from './record/recording-fetch.js';
export type { ProvenanceInput } from './record/recording-fetch.js';
export type { RecordingFetch } from './record/recording-fetch.js';
export type { RecordingOptions } from './record/recording-fetch.js';
export type { RecordReport } from './record/recording-fetch.js';
export { createReplayingFetch } from './replay/replaying-fetch.js';
export type { ReplayingFetch } from './replay/replaying-fetch.js';
export type { ReplayMode } from './replay/replaying-fetch.js';
export type { ReplayOptions } from './replay/replaying-fetch.js';
export type { ReplayReport } from './replay/replaying-fetch.js';
export type { ReplayWarning } from './replay/replaying-fetch.js';
export type { ReadCall } from './replay/replaying-fetch.js';
export type { Consumption } from './replay/replay-messages.js';
export type { ReplayTiming } from './replay/replay-timing.js';
export { withLineage } from './lineage/lineage-scope.js';
export { currentLineage } from './lineage/lineage-scope.js';
export { threadCalls } from './threading/thread-calls.js';
export type { FlatCall } from './threading/thread-calls.js';
export type { ThreadedCalls } from './threading/thread-calls.js';

// One cassette per test, for any test runner (`nestcast/vitest` wraps it).
export { openCassette } from './cassette-session/open-cassette.js';
export type { CassetteOptions } from './cassette-session/open-cassette.js';
export type { CassetteSession } from './cassette-session/open-cassette.js';
export type { CassetteMode } from './cassette-session/cassette-mode.js';

// Normalisation: rules that take random values out of requests before matching.
export { NormalisationError } from './normalisation/check-rules.js';
export type { Normalisation } from './normalisation/types.js';
export type { NormalisationHook } from './normalisation/types.js';
export type { NormalisationRule } from './normalisation/types.js';
export type { UnusedRule } from './normalisation/types.js';

// The keyless guard: no escaping request, no key in the environment.
export { installNetworkGuard } from './guard/network-guard.js';
export type { NetworkEscape } from './guard/network-guard.js';
export type { NetworkGuard } from './guard/network-guard.js';
export type { NetworkGuardOptions } from './guard/network-guard.js';
export { serveCassetteWithMsw } from './guard/serve-cassette-with-msw.js';
export type { MswCassette } from './guard/serve-cassette-with-msw.js';
export type { MswCassetteOptions } from './guard/serve-cassette-with-msw.js';
export { scrubKeyLikeEnv } from './guard/scrub-key-env.js';

// The one secret scan every written file passes.
export { assertNoSecrets } from './secrets/scan-before-write.js';
export { writeFilesScanned } from './secrets/scan-before-write.js';
export { secretWriteGuard } from './secrets/scan-before-write.js';
export type { PlannedFile } from './secrets/scan-before-write.js';
export type { ScanOptions } from './secrets/scan-before-write.js';
export type { Secret } from './secrets/secret.js';

// Scripting the model without a key: authored scripts.
export { compileScript } from './authored/compile-script.js';
export type { CompileOptions } from './authored/compile-script.js';
export type { AuthoredHang } from './authored/types.js';
export type { AuthoredHttpError } from './authored/types.js';
export type { AuthoredNetworkError } from './authored/types.js';
export type { AuthoredReply } from './authored/types.js';
export type { AuthoredScript } from './authored/types.js';
export type { AuthoredToolCall } from './authored/types.js';
export type { AuthoredTurn } from './authored/types.js';

// One endpoint for any process: serve a script, replay a recording, or record (docs/serve.md).
export { startModelServer } from './serve/start-model-server.js';
export type { ModelServer } from './serve/start-model-server.js';
export type { ModelServerOptions } from './serve/start-model-server.js';
export type { ScriptServing } from './serve/start-model-server.js';
export type { RecordingServing } from './serve/start-model-server.js';
export type { RecordServing } from './serve/start-model-server.js';
export type { ThroughServing } from './serve/start-model-server.js';
export type { ServeMode } from './serve/start-model-server.js';
export type { ServeSummary } from './serve/start-model-server.js';
export type { RoundReport } from './serve/call-source.js';
export { ServeError } from './serve/serve-error.js';
export type { ServeErrorCode } from './serve/serve-error.js';

// ACP children at the protocol level: the recorded exchange and its errors.
export { exchangeSchema } from './acp-cassette/exchange-schema.js';
export { AcpCassetteError } from './acp-cassette/acp-cassette-error.js';
export type { AcpCassetteErrorCode } from './acp-cassette/acp-cassette-error.js';
export type { AcpExchange } from './acp-cassette/types.js';
export type { ExchangeEntry } from './acp-cassette/types.js';
export type { ExitEntry } from './acp-cassette/types.js';
export type { FrameEntry } from './acp-cassette/types.js';
export type { RecordedExit } from './acp-cassette/types.js';

// Reports people look at: a self-contained HTML timeline of a run or a recording.
export { writeReport } from './report/write-report.js';
export type { WrittenReport } from './report/write-report.js';
export { writeReportFiles } from './report/write-report-files.js';
export type { ReportFile } from './report/write-report-files.js';
export type { WriteReportOptions } from './report/write-report-files.js';
export { runReportInput } from './report/report-inputs.js';
export { recordingReportInput } from './report/report-inputs.js';
export type { ScenarioRun } from './report/report-inputs.js';
export { buildReportData } from './report/build-report-data.js';
export type { ReportInput } from './report/build-report-data.js';
export { renderScenarioPage } from './report/render-page.js';
export { renderIndexPage } from './report/render-index.js';
export { reportDataSchema } from './report/report-schema.js';
export { reportIndexSchema } from './report/report-schema.js';
export { ReportError } from './report/report-error.js';
export type { ReportErrorCode } from './report/report-error.js';
export type { PhaseKind } from './report/types.js';
export type { ReportData } from './report/types.js';
export type { ReportDivergence } from './report/types.js';
export type { ReportFailure } from './report/types.js';
export type { ReportIndexData } from './report/types.js';
export type { ReportIndexEntry } from './report/types.js';
export type { ReportKind } from './report/types.js';
export type { ReportMark } from './report/types.js';
export type { ReportModelCall } from './report/types.js';
export type { ReportPhase } from './report/types.js';
export type { ReportScenario } from './report/types.js';
export type { ReportSession } from './report/types.js';
export type { ReportTask } from './report/types.js';
export type { ReportTiming } from './report/types.js';
export type { ReportToolCall } from './report/types.js';

// Fixtures of other tools: nock, Polly.js and HAR in, nock and HAR out.
export { importFixture } from './interop/import-fixture.js';
export type { ImportOptions } from './interop/import-fixture.js';
export type { ImportResult } from './interop/import-fixture.js';
export type { SkippedExchange } from './interop/import-fixture.js';
export type { FixtureFormat } from './interop/http-exchange.js';
export { exportRecording } from './interop/export-recording.js';
export type { ExportFormat } from './interop/export-recording.js';
export type { ExportOptions } from './interop/export-recording.js';
export type { ExportResult } from './interop/export-recording.js';
export type { LeftOut } from './interop/export-target.js';
export type { HarLog } from './interop/export-har.js';
export type { NockDefinitionOut } from './interop/export-nock.js';
export { pollyMatchRequestsBy } from './interop/polly-identity.js';
export { InteropError } from './interop/interop-error.js';
export type { InteropErrorCode } from './interop/interop-error.js';
