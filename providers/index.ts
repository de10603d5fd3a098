// The seam: contract, service, errors, lifecycle events.
export type {
  ChildAgentOptions,
  ResolvedStartRequest,
  StartCapability,
  SubagentCapabilities,
  SubagentProvider,
  SubagentResult,
  SubagentRun,
  SubagentStartRequest,
  SubagentStopReason,
} from './seam/types.js';
export { ALL_START_CAPABILITIES, NO_START_CAPABILITIES } from './seam/types.js';
export type { SubagentRunEndInfo, SubagentRunInfo } from './seam/events.js';
export { SubagentError, type SubagentErrorCode } from './seam/errors.js';
export { SubagentService, subagentsService, requireSubagents } from './seam/subagent-service.js';
export { isValidMaxDepth, outputSchemaProblem } from './seam/start-validation.js';

// In-process providers and the driver they share.
export { startInProcessRun, type InProcessHost, type InProcessStartOptions } from './inprocess/start-in-process-run.js';
export { STRUCTURED_OUTPUT_TOOL } from './inprocess/structured-output-capture.js';
export { createSpawnProvider, spawnProvider, type SpawnProviderConfig } from './spawn/spawn-provider.js';
export { createForkProvider, forkProvider, type ForkProviderConfig } from './fork/fork-provider.js';

// Out-of-process provider.
export * from './acp/index.js';

// The scripted provider for tests.
export { createMockProvider, mockProvider, type MockProviderConfig } from './mock/mock-provider.js';
export { MockScript, mockScript, type MockChooser } from './mock/mock-script.js';
export type { MockBehaviour } from './mock/mock-behaviour.js';

// The model-facing consumer.
export { subagentTool } from './tool/subagent-tool.js';
export { DEFAULT_MAX_DEPTH, type SubagentToolConfig } from './tool/subagent-tool-config.js';
