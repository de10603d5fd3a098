import type { Agent } from '../../harness/agents/agent.js';
import type { JsonSchema } from '../../harness/schema.js';
import type { ToolRestriction } from '../../harness/tools/types.js';

/** Start-time features a provider may offer. The service refuses a request that needs one it lacks. */
export interface SubagentCapabilities {
  readonly outputSchema: boolean;
  readonly maxDepth: boolean;
  readonly toolFilter: boolean;
  readonly persona: boolean;
}

export type StartCapability = keyof SubagentCapabilities;

export const NO_START_CAPABILITIES: SubagentCapabilities = Object.freeze({
  outputSchema: false,
  maxDepth: false,
  toolFilter: false,
  persona: false,
});

export const ALL_START_CAPABILITIES: SubagentCapabilities = Object.freeze({
  outputSchema: true,
  maxDepth: true,
  toolFilter: true,
  persona: true,
});

/** Model route for the child; anything left out is inherited from the parent agent. */
export interface ChildAgentOptions {
  readonly adapter?: string;
  readonly model?: string;
  readonly maxSteps?: number;
  readonly maxTokens?: number;
}

export interface SubagentStartRequest {
  /** The child's task, as its first user message. */
  readonly prompt: string;
  /** The delegating agent: its session gives the child's cwd, lineage and depth. */
  readonly parent: Agent;
  /** Cancels start-up (start rejects `ABORTED`) and the live run (result settles `aborted`). Required. */
  readonly signal: AbortSignal;
  /** Id of the tool call that starts the child; it names the child's lineage. */
  readonly spawnedBy?: string;
  /** Short display label (the subagent tool passes its description). */
  readonly label?: string;
  readonly agentOptions?: ChildAgentOptions;
  /** Requires the `outputSchema` capability: the child must report through `structured_output`. */
  readonly outputSchema?: JsonSchema;
  /** Requires `maxDepth`: absolute cap on the child's delegation depth. */
  readonly maxDepth?: number;
  /** Requires `toolFilter`: which global tools the child sees and may run. */
  readonly toolFilter?: ToolRestriction;
  /** Requires `persona`: a persona section added to the child's system prompt. */
  readonly persona?: string;
  /**
   * Out-of-process providers (acp): the run ends `error` after this long without a word from the
   * child. Overrides the provider's configured idle timeout; providers without one ignore it.
   */
  readonly idleTimeoutMs?: number;
}

/** What a provider receives: the caller's request plus what the service resolved for it. */
export interface ResolvedStartRequest extends SubagentStartRequest {
  readonly runId: string;
  /** The caller's `spawnedBy`, or `c<N>` (N-th such child of this parent) when it gave none. */
  readonly spawnedBy: string;
  /** The child's lineage, `<parent lineage>/<spawnedBy>` or `<parent lineage>/c<N>`. */
  readonly lineage: string;
  /** The child's delegation depth: the parent's + 1. */
  readonly depth: number;
}

/** Known stop reasons. Providers may add more; consumers treat any other value as a failure. */
export type SubagentStopReason = 'completed' | 'aborted' | 'error' | 'max-tokens' | 'refusal' | (string & {});

export interface SubagentResult {
  /** The child's final answer; partial when the run did not complete. */
  readonly output: string;
  /** Present only when an output schema was requested and the child's capture validated. */
  readonly structured?: unknown;
  readonly stopReason: SubagentStopReason;
  /** Why a non-completed run ended, in one safe line. */
  readonly diagnostic?: string;
}

/**
 * A ready child run, owned by the caller. Optional methods are runtime capabilities: present
 * means supported.
 */
export interface SubagentRun {
  readonly id: string;
  /** Resolves for every child-level outcome; rejects only for an infrastructure fault. */
  readonly result: Promise<SubagentResult>;
  /** Asks the child to stop; `result` then settles `aborted` (partial output kept). */
  cancel(reason?: string): void;
  /** Cancels what is left and resolves when nothing the run owns is alive. Idempotent. */
  dispose(): Promise<void>;
  /** Steers a running child: the message joins its next model call. */
  sendMessage?(content: string): void;
  /** Starts a follow-up turn on a finished child's session. */
  resume?(content: string, signal: AbortSignal): Promise<SubagentRun>;
}

/** One transport for running a child agent. Several coexist in the `subagents` service, by name. */
export interface SubagentProvider {
  readonly name: string;
  /** Read once, when the provider registers: the service checks every start against that snapshot. */
  readonly capabilities: SubagentCapabilities;
  /** Whether the child sees the parent's conversation (fork: yes). Descriptive; the tool words its description by it. */
  readonly inheritsParentContext: boolean;
  /**
   * Fulfils with a ready run (the ownership boundary: the caller now owns it). A rejection means
   * the provider has already released everything it made.
   */
  start(request: ResolvedStartRequest): Promise<SubagentRun>;
}
