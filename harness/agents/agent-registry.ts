import type { LlmService } from '../llm/llm-service.js';
import type { EventBus } from '../runtime/event-bus.js';
import type { HarnessEvents } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import type { Session } from '../session/store-types.js';
import type { TaskRuntime } from '../tasks/task-runtime.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { HarnessError } from '../errors.js';
import { optionKeys, unknownOption } from '../option-keys.js';
import { TOOL_RESTRICTION_KEYS } from '../tools/restriction-keys.js';
import { Agent } from './agent.js';
import type { AgentOptions } from './types.js';

export interface CreateAgentOptions extends AgentOptions {
  readonly session: Session;
}

/** A misspelt `toolRestriction` would give the agent every tool; a misspelt `maxSteps`, 16 steps. */
const CREATE_KEYS = optionKeys<CreateAgentOptions>({
  session: true,
  adapter: true,
  model: true,
  system: true,
  maxSteps: true,
  maxTokens: true,
  temperature: true,
  toolRestriction: true,
  ownTools: true,
});

/** Every live agent, by id (its session id). An agent leaves when it is disposed. */
export class AgentRegistry {
  private readonly agents = new Map<string, Agent>();

  constructor(
    private readonly deps: {
      readonly llm: LlmService;
      readonly tools: ToolRegistry;
      readonly tasks: TaskRuntime;
      readonly events: EventBus<HarnessEvents>;
      readonly logger: Logger;
    },
  ) {}

  create(options: CreateAgentOptions): Agent {
    const unknown = unknownOption(options, CREATE_KEYS, '', { toolRestriction: TOOL_RESTRICTION_KEYS });
    if (unknown !== undefined) throw new HarnessError('INVALID_AGENT_OPTIONS', `agents.create: ${unknown}`);
    const { session, ...agentOptions } = options;
    const agent = new Agent(session, agentOptions, {
      llm: this.deps.llm,
      logger: this.deps.logger,
      tools: this.deps.tools.view({
        ...(agentOptions.toolRestriction ? { restriction: agentOptions.toolRestriction } : {}),
        ...(agentOptions.ownTools ? { extra: agentOptions.ownTools } : {}),
      }),
      onDispose: async (disposed) => {
        try {
          await this.deps.tasks.killOwnedBy(disposed.id);
          await disposed.session.close();
        } finally {
          this.agents.delete(disposed.id);
          this.deps.events.emit('agent/disposed', { agentId: disposed.id, lineage: disposed.lineage });
        }
      },
    });
    this.agents.set(agent.id, agent);
    this.deps.events.emit('agent/created', { agentId: agent.id, lineage: agent.lineage });
    return agent;
  }

  get(id: string): Agent | undefined {
    return this.agents.get(id);
  }

  list(): Agent[] {
    return [...this.agents.values()];
  }

  async disposeAll(): Promise<void> {
    await Promise.all(this.list().map((agent) => agent.dispose()));
  }
}
