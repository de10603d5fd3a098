import type { Agent } from '../../harness/agents/agent.js';
import type { AgentOptions } from '../../harness/agents/types.js';
import type { Runtime } from '../../harness/runtime.js';
import type { Session } from '../../harness/session/store-types.js';
import type { SessionEvent } from '../../harness/session/types.js';
import { SubagentError } from '../seam/errors.js';
import type { ResolvedStartRequest, SubagentRun } from '../seam/types.js';
import { childSystemPrompt } from './child-system-prompt.js';
import { InProcessRun } from './in-process-run.js';
import { StructuredOutputCapture } from './structured-output-capture.js';

export interface InProcessStartOptions {
  /** Leading events the child inherits (fork); an empty seed means a fresh child. */
  readonly seed?: readonly SessionEvent[];
}

/** What the driver needs from the runtime. */
export type InProcessHost = Pick<Runtime, 'sessions' | 'agents'>;

/**
 * The one in-process driver behind spawn and fork. Resolves once the child agent is registered
 * (the ownership boundary); on any failure before that it releases what it made and rejects.
 */
export async function startInProcessRun(
  host: InProcessHost,
  request: ResolvedStartRequest,
  options: InProcessStartOptions = {},
): Promise<SubagentRun> {
  const { parent, signal } = request;
  const refuse = (): SubagentError =>
    new SubagentError(
      'ABORTED',
      `subagent ${request.lineage} was cancelled before it was ready; nothing was left behind`,
      { cause: signal.reason },
    );
  if (signal.aborted) throw refuse();
  if (parent.disposed) {
    throw new SubagentError(
      'PARENT_DISPOSED',
      `cannot start subagent ${request.lineage}: its parent agent ${parent.lineage} is disposed`,
    );
  }
  const seed = options.seed !== undefined && options.seed.length > 0 ? { seed: options.seed } : {};
  let session: Session;
  try {
    session = await host.sessions.create({
      lineage: request.lineage,
      parentSession: parent.id,
      spawnedBy: request.spawnedBy,
      origin: 'subagent',
      delegationDepth: request.depth,
      cwd: parent.session.header.cwd,
      ...seed,
    });
  } catch (error) {
    throw new SubagentError(
      'START_FAILED',
      `cannot create the session of subagent ${request.lineage}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (signal.aborted) {
    await host.sessions.discard(session);
    throw refuse();
  }
  // The parent may have been torn down while the session was being created: no child for a gone parent.
  if (parent.disposed) {
    await host.sessions.discard(session);
    throw new SubagentError(
      'PARENT_DISPOSED',
      `cannot start subagent ${request.lineage}: its parent agent ${parent.lineage} was disposed during start-up; nothing was left behind`,
    );
  }
  const capture = request.outputSchema ? new StructuredOutputCapture(request.outputSchema) : undefined;
  let agent: Agent;
  try {
    agent = host.agents.create({ session, ...childAgentOptions(request, capture) });
  } catch (error) {
    await host.sessions.discard(session);
    throw new SubagentError(
      'START_FAILED',
      `cannot create the agent of subagent ${request.lineage}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return new InProcessRun(agent, request.prompt, signal, capture);
}

/** The child's options: its own system prompt and tools, the parent's model route unless overridden. */
function childAgentOptions(request: ResolvedStartRequest, capture: StructuredOutputCapture | undefined): AgentOptions {
  const inherited = request.parent.options;
  const route = request.agentOptions ?? {};
  const pick = <K extends 'adapter' | 'model' | 'maxTokens'>(key: K) => route[key] ?? inherited[key];
  const adapter = pick('adapter');
  const model = pick('model');
  const maxTokens = pick('maxTokens');
  return {
    system: childSystemPrompt({
      ...(request.persona !== undefined ? { persona: request.persona } : {}),
      structured: capture !== undefined,
    }),
    ...(adapter !== undefined ? { adapter } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(route.maxSteps !== undefined ? { maxSteps: route.maxSteps } : {}),
    ...(request.toolFilter ? { toolRestriction: request.toolFilter } : {}),
    ...(capture ? { ownTools: [capture.tool] } : {}),
  };
}
