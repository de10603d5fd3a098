export { harvestSessions, type HarvestedSession } from './collect-sessions.js';
export { compareTranscripts, type TranscriptDiff } from './compare-transcripts.js';
export { formatTranscriptDiff } from './format-transcript-diff.js';
export { HarvestError } from './harvest-error.js';
export { orderByLineage } from './lineage-order.js';
export { normalizeSessions, type NormalizeContext, type NormalizedSession } from './normalize.js';
export { readTranscripts, writeTranscripts } from './transcript.js';
export { TRANSCRIPT_MANIFEST, TRANSCRIPTS_DIR, transcriptFiles } from './transcript-files.js';
