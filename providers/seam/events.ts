import type { SubagentProvider, SubagentStopReason } from './types.js';

export interface SubagentRunInfo {
  readonly runId: string;
  readonly provider: string;
  /** The run's id (for in-process runs, the child session id). */
  readonly childId: string;
  /** The delegating agent's id. */
  readonly parentId: string;
  readonly lineage: string;
}

export interface SubagentRunEndInfo extends SubagentRunInfo {
  readonly stopReason: SubagentStopReason;
  /** The child's final output; absent when it produced none or the result rejected. */
  readonly lastAssistantMessage?: string;
}

declare module '../../harness/runtime/events.js' {
  interface HarnessEvents {
    'subagent/provider-added': SubagentProvider;
    'subagent/provider-removed': { readonly name: string };
    'subagent/start': SubagentRunInfo;
    'subagent/end': SubagentRunEndInfo;
  }
}
