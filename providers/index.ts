// `nestcast/providers`: the subagent seam, its providers and the model-facing tool. The public list,
// reviewed; everything else stays importable by path inside this repository. docs/api.md lists it, and a test
// holds the two together.

// The seam: the contract every provider implements.
export type { ChildAgentOptions } from './seam/types.js';
export type { ResolvedStartRequest } from './seam/types.js';
export type { StartCapability } from './seam/types.js';
export type { SubagentCapabilities } from './seam/types.js';
export type { SubagentProvider } from './seam/types.js';
export type { SubagentResult } from './seam/types.js';
export type { SubagentRun } from './seam/types.js';
export type { SubagentStartRequest } from './seam/types.js';
export type { SubagentStopReason } from './seam/types.js';
export { ALL_START_CAPABILITIES } from './seam/types.js';
export { NO_START_CAPABILITIES } from './seam/types.js';

// The service that starts runs, its lifecycle events and its errors.
export { SubagentService } from './seam/subagent-service.js';
export { subagentsService } from './seam/subagent-service.js';
export { requireSubagents } from './seam/subagent-service.js';
export type { SubagentRunInfo } from './seam/events.js';
export type { SubagentRunEndInfo } from './seam/events.js';
export { SubagentError } from './seam/errors.js';
export type { SubagentErrorCode } from './seam/errors.js';

// In-process providers, and the driver for writing another.
export { spawnProvider } from './spawn/spawn-provider.js';
export { createSpawnProvider } from './spawn/spawn-provider.js';
export type { SpawnProviderConfig } from './spawn/spawn-provider.js';
export { forkProvider } from './fork/fork-provider.js';
export { createForkProvider } from './fork/fork-provider.js';
export type { ForkProviderConfig } from './fork/fork-provider.js';
export { startInProcessRun } from './inprocess/start-in-process-run.js';
export type { InProcessHost } from './inprocess/start-in-process-run.js';
export type { InProcessStartOptions } from './inprocess/start-in-process-run.js';

// The out-of-process provider: a child agent over ACP.
export { acpProvider } from './acp/acp-provider.js';
export { createAcpProvider } from './acp/acp-provider.js';
export type { AcpProviderContext } from './acp/acp-provider.js';
export type { AcpProviderConfig } from './acp/acp-provider-config.js';
export type { ChildStderr } from './acp/acp-provider-config.js';
export type { PermissionPolicy } from './acp/acp-provider-config.js';

// The scripted provider for tests.
export { mockProvider } from './mock/mock-provider.js';
export { createMockProvider } from './mock/mock-provider.js';
export type { MockProviderConfig } from './mock/mock-provider.js';
export { MockScript } from './mock/mock-script.js';
export { mockScript } from './mock/mock-script.js';
export type { MockChooser } from './mock/mock-script.js';
export type { MockBehaviour } from './mock/mock-behaviour.js';

// The model-facing consumer: the `subagent` tool.
export { subagentTool } from './tool/subagent-tool.js';
export { DEFAULT_MAX_DEPTH } from './tool/subagent-tool-config.js';
export type { SubagentToolConfig } from './tool/subagent-tool-config.js';
