export { CassetteError, DEFAULT_RECORD_HINT, type CassetteErrorCode } from './cassette-error.js';
export { CALLS_DIR, META_FILE, lineageFile, lineageOfFile } from './lineage-file.js';
export { loadCassette, type LoadOptions } from './load-cassette.js';
export { mergeCassettes } from './merge-cassettes.js';
export type { Secret } from '../secrets/secret.js';
export { saveCassette, writeCassetteInto, type SaveOptions, type SaveResult } from './save-cassette.js';
export { recorderName } from './recorder-name.js';
export { summarizeRequest } from './request-summary.js';
export { summarizeResponse, type ResponseSummary } from './response-summary.js';
export { callLineSchema, metaSchema } from './schemas.js';
export { formatSseEvent, DONE_FRAME } from './sse-format.js';
export { SseParser, type ParsedSseEvent } from './sse-parser.js';
export {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type BodyResponse,
  type CallFailure,
  type CallLine,
  type Cassette,
  type CassetteCall,
  type CassetteMeta,
  type PartialResponse,
  type RecordedAmbiguity,
  type Provenance,
  type RecordedResponse,
  type SseEvent,
  type StoredRequest,
  type StreamedResponse,
} from './types.js';
