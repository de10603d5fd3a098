import { HarnessError } from '../errors.js';
import type { LlmAdapter, LlmCallOptions, LlmEvent, LlmRequest } from './types.js';

export interface LlmStreamOptions extends LlmCallOptions {
  /** Registered adapter name; default: the first adapter still registered. */
  readonly adapter?: string;
}

/** The registry of model adapters, and the one door every model call goes through. */
export class LlmService {
  readonly #adapters = new Map<string, LlmAdapter>();

  /** Returns the disposer that unregisters this adapter (idempotent). */
  register(adapter: LlmAdapter): () => void {
    if (this.#adapters.has(adapter.name)) {
      throw new HarnessError(
        'DUPLICATE_ADAPTER',
        `an LLM adapter named "${adapter.name}" is already registered; dispose it first or give the new one another name`,
      );
    }
    this.#adapters.set(adapter.name, adapter);
    return () => {
      if (this.#adapters.get(adapter.name) === adapter) this.#adapters.delete(adapter.name);
    };
  }

  get(name: string): LlmAdapter | undefined {
    return this.#adapters.get(name);
  }

  names(): string[] {
    return [...this.#adapters.keys()];
  }

  /** Streams from the named adapter, or the default one. Throws NO_ADAPTER at once when there is none. */
  stream(request: LlmRequest, options: LlmStreamOptions = {}): AsyncIterable<LlmEvent> {
    const { adapter: name, ...callOptions } = options;
    return this.#resolve(name).stream(request, callOptions);
  }

  #resolve(name: string | undefined): LlmAdapter {
    if (name !== undefined) {
      const adapter = this.#adapters.get(name);
      if (adapter !== undefined) return adapter;
      const known = this.names();
      throw new HarnessError(
        'NO_ADAPTER',
        `no LLM adapter named "${name}" is registered (registered: ${known.length > 0 ? known.join(', ') : 'none'}); register it with llm.register(createOpenAICompatibleAdapter({name: '${name}'}))`,
      );
    }
    const first = this.#adapters.values().next();
    if (first.done === true) {
      throw new HarnessError(
        'NO_ADAPTER',
        'no LLM adapter is registered; register one with llm.register(createOpenAICompatibleAdapter()) before the first model call',
      );
    }
    return first.value;
  }
}
