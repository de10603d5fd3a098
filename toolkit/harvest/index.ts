export { harvestSessions, type HarvestedSession } from './collect-sessions.js';
export {
  compareTranscripts,
  type ExtraSession,
  type MissingSession,
  type SessionDivergence,
  type TranscriptDiff,
} from './compare-transcripts.js';
export { formatTranscriptDiff } from './format-transcript-diff.js';
export { HarvestError, type HarvestErrorCode } from './harvest-error.js';
export { orderByLineage } from './lineage-order.js';
export { normalizeSessions, type NormalizeContext, type NormalizedSession } from './normalize.js';
export { readTranscripts, serializeTranscript, writeTranscripts } from './transcript.js';
export { TRANSCRIPT_MANIFEST, TRANSCRIPTS_DIR, transcriptFiles } from './transcript-files.js';
