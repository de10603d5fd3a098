export { DEFAULT_RESPONSE_HEADERS } from './capture-response.js';
export { createRecordingFetch, type ProvenanceInput, type RecordReport, type RecordingOptions } from './recording-fetch.js';
export { MODEL_SERVER_STAND_IN, redirectingFetch } from './redirecting-fetch.js';
