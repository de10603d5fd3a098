import type { LlmAdapter, LlmEvent } from '../llm/types.js';

export type ModelStreamListener = (event: LlmEvent) => void;

/**
 * Lets the ACP agent forward text as the model streams it: the session log only holds a step's
 * text once the step ends, but an ACP client expects `agent_message_chunk`s as they come.
 */
export class ModelStreamTap {
  private readonly listeners = new Map<string, Set<ModelStreamListener>>();

  /** Observes the model events of calls made for `lineage`; returns the unsubscribe. */
  on(lineage: string, listener: ModelStreamListener): () => void {
    const set = this.listeners.get(lineage) ?? new Set();
    set.add(listener);
    this.listeners.set(lineage, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(lineage);
    };
  }

  /** The same adapter, reporting every event it yields to the listeners of the call's lineage. */
  wrap(adapter: LlmAdapter): LlmAdapter {
    const tap = this;
    return {
      name: adapter.name,
      async *stream(request, options) {
        for await (const event of adapter.stream(request, options)) {
          for (const listener of tap.listeners.get(options.lineage ?? 'main') ?? []) listener(event);
          yield event;
        }
      },
    };
  }
}
