export { sessionLogArbitrary, type SessionLogConstraints } from './session-log-arbitrary.js';
export { anyInvalidLogArbitrary, invalidLogArbitrary, type InvalidLog } from './invalid-log-arbitrary.js';
export { sseSplitArbitrary } from './sse-split-arbitrary.js';
export {
  lifecycleScheduleArbitrary,
  OWNED_PHASES,
  PHASES,
  outcomeOfLineage,
  runSpawnedBy,
  type ChildOutcome,
  type LifecycleSchedule,
  type LifecycleScheduleConstraints,
  type ListenerFault,
  type ListenerPlacement,
  type ListenerPlan,
  type OwnedPhase,
  type Phase,
  type Refusal,
  type TimedAct,
  type Timing,
  type RunPlan,
} from './lifecycle-schedule-arbitrary.js';
