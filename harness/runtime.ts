import { AgentRegistry } from './agents/agent-registry.js';
import { HarnessError } from './errors.js';
import { LlmService } from './llm/llm-service.js';
import { optionKeys, unknownOption } from './option-keys.js';
import { SessionStore } from './session/session-store.js';
import { TaskRuntime } from './tasks/task-runtime.js';
import { ToolRegistry } from './tools/tool-registry.js';
import type { Disposer } from './runtime/disposer.js';
import { EventBus } from './runtime/event-bus.js';
import type { HarnessEvents, HarnessServices } from './runtime/events.js';
import { createStderrLogger, type Logger } from './runtime/logger.js';
import { Scope } from './runtime/scope.js';

export interface RuntimeOptions {
  /** Where session files go. */
  readonly sessionsRoot: string;
  readonly logger?: Logger;
  /** Sees every piece of text before it reaches a session file and may refuse it by throwing (the toolkit passes its secret scan). */
  readonly beforeWrite?: (path: string, text: string) => void;
  /** `false`: the sessions root is scratch, removed after the run; see `SessionStoreOptions.durable`. Default `true`. */
  readonly durableSessions?: boolean;
}

/** A misspelt `beforeWrite` would write session files the secret scan never saw. */
const RUNTIME_OPTION_KEYS = optionKeys<RuntimeOptions>({
  sessionsRoot: true,
  logger: true,
  beforeWrite: true,
  durableSessions: true,
});

/** A plugin registers things through its scope; whatever it returns is run when it is unloaded. */
export type Plugin<Config = void> = (scope: PluginScope, config: Config) => void | Disposer | Promise<void | Disposer>;

/** What a plugin sees: the runtime, and a scope that owns what it registers. */
export interface PluginScope {
  readonly runtime: Runtime;
  /** Adds a disposer to the plugin's lifetime. */
  add(disposer: Disposer): void;
  /** Subscribes for the plugin's lifetime. */
  on<K extends keyof HarnessEvents>(event: K, listener: (payload: HarnessEvents[K]) => void | Promise<void>): void;
}

/**
 * The context everything runs in: services (`llm`, `tools`, `sessions`, `agents`, `tasks`, and any
 * a plugin provides), a typed event bus, and plugins that unload cleanly.
 */
export class Runtime {
  readonly logger: Logger;
  readonly events: EventBus<HarnessEvents>;
  readonly llm = new LlmService();
  readonly tools = new ToolRegistry();
  readonly sessions: SessionStore;
  readonly tasks: TaskRuntime;
  readonly agents: AgentRegistry;
  private readonly extensions = new Map<keyof HarnessServices, unknown>();
  private readonly root = new Scope();

  constructor(options: RuntimeOptions) {
    const unknown = unknownOption(options, RUNTIME_OPTION_KEYS);
    if (unknown !== undefined) throw new HarnessError('INVALID_RUNTIME_OPTIONS', `new Runtime: ${unknown}.`);
    this.logger = options.logger ?? createStderrLogger();
    this.events = new EventBus<HarnessEvents>(this.logger);
    this.sessions = new SessionStore({
      root: options.sessionsRoot,
      ...(options.beforeWrite ? { beforeWrite: options.beforeWrite } : {}),
      ...(options.durableSessions !== undefined ? { durable: options.durableSessions } : {}),
    });
    this.tasks = new TaskRuntime(this.events);
    this.agents = new AgentRegistry({
      llm: this.llm,
      tools: this.tools,
      tasks: this.tasks,
      events: this.events,
      logger: this.logger,
    });
  }

  /** Makes a service available under `name` until the disposer runs. A taken name is refused. */
  provide<K extends keyof HarnessServices>(name: K, service: HarnessServices[K]): Disposer {
    if (this.extensions.has(name)) {
      throw new HarnessError('DUPLICATE_SERVICE', `a service named "${String(name)}" is already provided`);
    }
    this.extensions.set(name, service);
    return () => {
      if (this.extensions.get(name) === service) this.extensions.delete(name);
    };
  }

  /** The service, or undefined when nobody provides it. */
  find<K extends keyof HarnessServices>(name: K): HarnessServices[K] | undefined {
    return this.extensions.get(name) as HarnessServices[K] | undefined;
  }

  /** Loads a plugin. The returned disposer unloads it and removes everything it registered. */
  async use<Config>(plugin: Plugin<Config>, config: Config): Promise<() => Promise<void>>;
  async use(plugin: Plugin<void>): Promise<() => Promise<void>>;
  async use<Config>(plugin: Plugin<Config>, config?: Config): Promise<() => Promise<void>> {
    if (this.root.disposed) throw new HarnessError('RUNTIME_DISPOSED', 'the runtime is disposed; create a new one');
    const scope = this.root.child();
    const pluginScope: PluginScope = {
      runtime: this,
      add: (disposer) => scope.add(disposer),
      on: (event, listener) => scope.add(this.events.on(event, listener)),
    };
    try {
      const disposer = await plugin(pluginScope, config as Config);
      if (disposer) scope.add(disposer);
    } catch (error) {
      await scope.dispose().catch(() => undefined);
      throw error;
    }
    return () => scope.dispose();
  }

  /** Unloads every plugin, disposes every agent (which kills their tasks) and closes every session. */
  async dispose(): Promise<void> {
    await this.root.dispose();
    await this.agents.disposeAll();
    await this.tasks.killAll();
    await this.sessions.closeAll();
  }
}
