export * from './types.js';
export type {
  CreateSessionOptions,
  LoadedSessionLog,
  RecoveredTail,
  ResumedSession,
  Session,
  SessionStoreOptions,
} from './store-types.js';
export { SessionStore } from './session-store.js';
export { parseSessionLog, serializeSessionLine, serializeSessionLog } from './jsonl.js';
export { assertInvariants, checkInvariants, INVARIANT_RULES } from './invariants.js';
export type { InvariantOptions, InvariantRule, Violation } from './invariants.js';
export { balancedPrefix } from './balanced-prefix.js';
export { childLineage, lineageProblem, ordinalSpawnedBy } from './lineage.js';
export { eventShapeProblem } from './event-shape.js';
export { headerProblems } from './header-shape.js';
