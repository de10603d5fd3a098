export { acpProvider, createAcpProvider, type AcpProviderContext } from './acp-provider.js';
export {
  ACP_CONFIG_DEFAULTS,
  resolveAcpProviderConfig,
  type AcpProviderConfig,
  type ChildStderr,
  type PermissionPolicy,
  type ResolvedAcpProviderConfig,
} from './acp-provider-config.js';
export { childEnv, type NestcastChildVariables } from './child-env.js';
export { subagentStopReason } from './stop-reason.js';
