// `nestcast/fuzz`: the provider lifecycle conformance suite. The public list, reviewed; the CLI, the built-in
// fixtures, the toy provider and the mutants stay importable by path inside this repository. docs/api.md lists
// it, and a test holds the two together.

// Running the suite on a provider, and reading what it found.
export { checkProviderLifecycle } from './check-provider-lifecycle.js';
export { assertProviderLifecycle } from './check-provider-lifecycle.js';
export { formatConformanceFailure } from './format-failure.js';
export { FuzzError } from './fuzz-error.js';
export type { FuzzErrorCode } from './fuzz-error.js';
export type { LifecycleCheckOptions } from './types.js';
export type { ConformanceReport } from './types.js';
export type { ConformanceFailure } from './types.js';
export type { LifecycleViolation } from './types.js';
export { LIFECYCLE_PROMISES } from './promises.js';
export type { LifecyclePromise } from './promises.js';

// Writing a fixture for your provider.
export type { ProviderFactory } from './types.js';
export type { ProviderFixture } from './types.js';
export type { FixtureContext } from './types.js';
export type { LiveThing } from './types.js';
export type { ChildOutcome } from '../arbitraries/lifecycle-schedule-arbitrary.js';
export type { Ask } from '../arbitraries/lifecycle-schedule-arbitrary.js';
export { DENIED_TOOL } from './asks.js';
export { VALID_ANSWER } from './asks.js';
export { INVALID_ANSWER } from './asks.js';
export { scheduledModel } from './factories/scheduled-model.js';

// Coverage: which phase x act cells and documented paths the schedules reached.
export { expectedCells } from './coverage.js';
export { claimedPaths } from './coverage.js';
export { formatCoverage } from './coverage.js';
export type { Act } from './coverage.js';
export type { CoverageCell } from './coverage.js';
export type { PathCell } from './coverage.js';
export type { Claims } from './coverage.js';

// Property testing: the arbitraries nestcast's own properties use (here, not in `nestcast/toolkit`: they load fast-check).
export { sessionLogArbitrary } from '../arbitraries/session-log-arbitrary.js';
export type { SessionLogConstraints } from '../arbitraries/session-log-arbitrary.js';
export { invalidLogArbitrary } from '../arbitraries/invalid-log-arbitrary.js';
export { anyInvalidLogArbitrary } from '../arbitraries/invalid-log-arbitrary.js';
export type { InvalidLog } from '../arbitraries/invalid-log-arbitrary.js';
export { sseSplitArbitrary } from '../arbitraries/sse-split-arbitrary.js';
export { lifecycleScheduleArbitrary } from '../arbitraries/lifecycle-schedule-arbitrary.js';
export type { LifecycleSchedule } from '../arbitraries/lifecycle-schedule-arbitrary.js';
export type { LifecycleScheduleConstraints } from '../arbitraries/lifecycle-schedule-arbitrary.js';
