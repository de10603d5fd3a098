export { assertProviderLifecycle, checkProviderLifecycle } from './check-provider-lifecycle.js';
export { formatConformanceFailure } from './format-failure.js';
export { FuzzError, type FuzzErrorCode } from './fuzz-error.js';
export { FUZZ_HELP, FUZZ_PROVIDERS, fuzzMain, type FuzzIo } from './fuzz-main.js';
export { acpFactory, FUZZ_ACP_AGENT } from './factories/acp-factory.js';
export { forkFactory, spawnFactory } from './factories/in-process-factories.js';
export { mockFactory } from './factories/mock-factory.js';
export { SCHEDULED_MODEL, scheduledModel } from './factories/scheduled-model.js';
export { ToyChildren, toyFactory, ToyProvider, ToyRun, type ToyContext } from './toy-provider.js';
export { expectedCells, formatCoverage, type Act, type CoverageCell } from './coverage.js';
export { HIJACKED, InjectedListenerFailure, isListenerFailure } from './lifecycle-recorder.js';
export type {
  ConformanceFailure,
  ConformanceReport,
  FixtureContext,
  LifecycleCheckOptions,
  LifecycleViolation,
  LiveThing,
  ProviderFactory,
  ProviderFixture,
} from './types.js';
