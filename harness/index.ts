// `nestcast/harness`: the agent runtime the providers stand on. The public list, reviewed; everything
// else stays importable by path inside this repository. docs/api.md lists it, and a test holds the two together.

// Errors: one base class, and the codes of the harness and the model layer.
export { NestcastError } from './errors.js';
export { HarnessError } from './errors.js';
export type { HarnessErrorCode } from './errors.js';
export { LlmError } from './llm/errors.js';
export type { LlmErrorCode } from './llm/errors.js';
export type { LlmErrorDetails } from './llm/errors.js';

// The runtime: plugins, services, lifecycle events, scopes and logs.
export { Runtime } from './runtime.js';
export type { Plugin } from './runtime.js';
export type { PluginScope } from './runtime.js';
export type { RuntimeOptions } from './runtime.js';
export { EventBus } from './runtime/event-bus.js';
export type { Listener } from './runtime/event-bus.js';
export type { ListenerFailure } from './runtime/event-bus.js';
export type { HarnessEvents } from './runtime/events.js';
export type { HarnessServices } from './runtime/events.js';
export { Scope } from './runtime/scope.js';
export type { Disposer } from './runtime/disposer.js';
export { createMemoryLogger } from './runtime/logger.js';
export { createStderrLogger } from './runtime/logger.js';
export type { Logger } from './runtime/logger.js';
export type { JsonSchema } from './schema.js';

// Sessions: the JSONL log, its store, and the invariants every log keeps.
export { SessionStore } from './session/session-store.js';
export type { CreateSessionOptions } from './session/store-types.js';
export type { LoadedSessionLog } from './session/store-types.js';
export type { RecoveredTail } from './session/store-types.js';
export type { ResumedSession } from './session/store-types.js';
export type { Session } from './session/store-types.js';
export type { SessionStoreOptions } from './session/store-types.js';
export { parseSessionLog } from './session/jsonl.js';
export { serializeSessionLog } from './session/jsonl.js';
export { checkInvariants } from './session/invariants.js';
export { assertInvariants } from './session/invariants.js';
export { INVARIANT_RULES } from './session/invariants.js';
export type { InvariantOptions } from './session/invariants.js';
export type { InvariantRule } from './session/invariants.js';
export type { Violation } from './session/invariants.js';
export { balancedPrefix } from './session/balanced-prefix.js';
export { SESSION_FORMAT_VERSION } from './session/types.js';
export type { AssistantBlock } from './session/types.js';
export type { ContentBlock } from './session/types.js';
export type { NewSessionEvent } from './session/types.js';
export type { SessionEvent } from './session/types.js';
export type { SessionEventMap } from './session/types.js';
export type { SessionEventOf } from './session/types.js';
export type { SessionEventType } from './session/types.js';
export type { SessionHeader } from './session/types.js';
export type { SessionLog } from './session/types.js';
export type { StepFinish } from './session/types.js';
export type { TurnEndReason } from './session/types.js';
export type { Usage } from './session/types.js';

// The model: the service, the adapter contract, and the OpenAI-compatible adapter.
export { LlmService } from './llm/llm-service.js';
export { createOpenAICompatibleAdapter } from './llm/openai-compatible/openai-compatible-adapter.js';
export type { OpenAICompatibleConfig } from './llm/openai-compatible/openai-compatible-adapter.js';
export { ModelStreamTap } from './llm/model-stream-tap.js';
export type { ModelStreamListener } from './llm/model-stream-tap.js';
export { LINEAGE_HEADER } from './llm/types.js';
export type { LlmAdapter } from './llm/types.js';
export type { LlmCallOptions } from './llm/types.js';
export type { LlmEvent } from './llm/types.js';
export type { LlmFinishReason } from './llm/types.js';
export type { LlmMessage } from './llm/types.js';
export type { LlmRequest } from './llm/types.js';
export type { LlmToolSpec } from './llm/types.js';

// Tools.
export { ToolRegistry } from './tools/tool-registry.js';
export { ToolView } from './tools/tool-view.js';
export type { ToolDefinition } from './tools/types.js';
export type { ToolExecution } from './tools/types.js';
export type { ToolOutput } from './tools/types.js';
export type { ToolRestriction } from './tools/types.js';
export type { ToolResult } from './tools/types.js';

// Agents: the loop, its registry, and what a turn leaves.
export { Agent } from './agents/agent.js';
export { AgentRegistry } from './agents/agent-registry.js';
export type { CreateAgentOptions } from './agents/agent-registry.js';
export { DEFAULT_MAX_STEPS } from './agents/types.js';
export type { AgentOptions } from './agents/types.js';
export type { RunOptions } from './agents/types.js';
export type { TurnOutcome } from './agents/types.js';
export { finalAssistantText } from './agents/final-output.js';
export { messagesFromLog } from './agents/messages-from-log.js';

// Background tasks.
export { TaskRuntime } from './tasks/task-runtime.js';
export { taskTools } from './tasks/task-tools.js';
export type { TaskInfo } from './tasks/types.js';
export type { TaskOutcome } from './tasks/types.js';
export type { TaskRegistration } from './tasks/types.js';
export type { TaskStatus } from './tasks/types.js';

// The harness as an ACP agent.
export { runAcpAgent } from './acp-agent/serve-acp-agent.js';
export type { RunAcpAgentOptions } from './acp-agent/run-acp-agent.js';
export { createAcpAgentRuntime } from './acp-agent/acp-agent-runtime.js';
export type { AcpAgentRuntime } from './acp-agent/acp-agent-runtime.js';
export type { AcpAgentRuntimeOptions } from './acp-agent/acp-agent-runtime.js';
