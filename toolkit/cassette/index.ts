export { CassetteError, DEFAULT_RECORD_HINT } from './cassette-error.js';
export { CALLS_DIR, META_FILE, lineageFile, lineageOfFile } from './lineage-file.js';
export { loadCassette } from './load-cassette.js';
export { mergeCassettes } from './merge-cassettes.js';
export type { Secret } from '../secrets/secret.js';
export { saveCassette, writeCassetteInto, type SaveResult } from './save-cassette.js';
export { recorderName } from './recorder-name.js';
export { summarizeRequest } from './request-summary.js';
export { summarizeResponse } from './response-summary.js';
export { callLineSchema, metaSchema } from './schemas.js';
export { formatSseEvent, DONE_FRAME } from './sse-format.js';
export { SseParser } from './sse-parser.js';
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
