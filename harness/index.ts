export { NestcastError, HarnessError, type HarnessErrorCode } from './errors.js';
export { compileSchema, formatSchemaErrors, type JsonSchema, type SchemaCheck } from './schema.js';

export { Runtime, type Plugin, type PluginScope, type RuntimeOptions } from './runtime/runtime.js';
export { EventBus, type Listener, type ListenerFailure } from './runtime/event-bus.js';
export type { HarnessEvents, HarnessServices } from './runtime/events.js';
export { Scope } from './runtime/scope.js';
export type { Disposer } from './runtime/disposer.js';
export { createMemoryLogger, createStderrLogger, describeThrown, type Logger } from './runtime/logger.js';

export * from './session/index.js';
export * from './llm/index.js';

export { ToolRegistry } from './tools/tool-registry.js';
export { ToolView } from './tools/tool-view.js';
export type { ToolDefinition, ToolExecution, ToolOutput, ToolRestriction, ToolResult } from './tools/types.js';

export { Agent } from './agents/agent.js';
export { AgentRegistry, type CreateAgentOptions } from './agents/agent-registry.js';
export { finalAssistantText } from './agents/final-output.js';
export { messagesFromLog } from './agents/messages-from-log.js';
export { DEFAULT_MAX_STEPS, type AgentOptions, type RunOptions, type TurnOutcome } from './agents/types.js';

export { TaskRuntime } from './tasks/task-runtime.js';
export { renderTaskOutcome, taskTools } from './tasks/task-tools.js';
export type { TaskInfo, TaskOutcome, TaskRegistration, TaskStatus } from './tasks/types.js';
export * from './acp-agent/index.js';
export { writeFileAtomically } from './atomic-write.js';
