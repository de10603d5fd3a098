export { sessionLogArbitrary, type SessionLogConstraints } from './session-log-arbitrary.js';
export { anyInvalidLogArbitrary, invalidLogArbitrary, type InvalidLog } from './invalid-log-arbitrary.js';
export { sseSplitArbitrary } from './sse-split-arbitrary.js';
export {
  lifecycleScheduleArbitrary,
  outcomeOfLineage,
  runSpawnedBy,
  type ChildOutcome,
  type LifecycleSchedule,
  type LifecycleScheduleConstraints,
  type ListenerFault,
  type Refusal,
  type RunPlan,
} from './lifecycle-schedule-arbitrary.js';
