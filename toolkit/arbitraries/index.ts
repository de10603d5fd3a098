export { sessionLogArbitrary } from './session-log-arbitrary.js';
export { anyInvalidLogArbitrary, invalidLogArbitrary } from './invalid-log-arbitrary.js';
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
  type ListenerPlan,
  type Phase,
  type Refusal,
  type TimedAct,
  type RunPlan,
} from './lifecycle-schedule-arbitrary.js';
