export { acpAgentMain, ACP_AGENT_USAGE } from './acp-agent-main.js';
export { runAcpAgent, type RunAcpAgentOptions } from './run-acp-agent.js';
export { createAcpAgentRuntime, type AcpAgentRuntime, type AcpAgentRuntimeOptions } from './acp-agent-runtime.js';
export { acpStopReason } from './acp-stop-reason.js';
