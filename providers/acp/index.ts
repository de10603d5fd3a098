export { acpProvider, createAcpProvider } from './acp-provider.js';
export {
  ACP_CONFIG_DEFAULTS,
  resolveAcpProviderConfig,
  type AcpProviderConfig,
  type ChildStderr,
  type PermissionPolicy,
  type ResolvedAcpProviderConfig,
} from './acp-provider-config.js';
export { childEnv } from './child-env.js';
export { subagentStopReason } from './stop-reason.js';
export { spawnAcpChild } from './acp-child-process.js';
export type { AcpChannel, ChannelSpec, ChildExit, FrameListener, OpenAcpChannel } from './acp-channel.js';
export type { FrameDirection, JunkReport } from './frame-stream.js';
export type { DisposeGraces, Termination } from './terminate-child.js';
