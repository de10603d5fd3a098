import { DEFAULT_LINEAGE } from '../session/lineage.js';
import type { LlmAdapter, LlmEvent } from './types.js';

export type ModelStreamListener = (event: LlmEvent, lineage: string) => void;

/**
 * Sees every model event as it streams, per calling session's lineage. A session log holds a
 * step's words only once the step ends; whoever must react sooner (an ACP agent forwarding
 * chunks, a scenario cancelling mid-answer) taps the adapter instead.
 */
export class ModelStreamTap {
  private readonly listeners = new Map<string | undefined, Set<ModelStreamListener>>();

  /** Observes the model events of calls made for `lineage`; returns the unsubscribe. */
  on(lineage: string, listener: ModelStreamListener): () => void {
    return this.subscribe(lineage, listener);
  }

  /** Observes the model events of every call, whatever its lineage; returns the unsubscribe. */
  onAny(listener: ModelStreamListener): () => void {
    return this.subscribe(undefined, listener);
  }

  /** The same adapter, reporting every event it yields to the listeners of the call's lineage. */
  wrap(adapter: LlmAdapter): LlmAdapter {
    const listeners = this.listeners;
    return {
      name: adapter.name,
      async *stream(request, options) {
        const lineage = options.lineage ?? DEFAULT_LINEAGE;
        for await (const event of adapter.stream(request, options)) {
          for (const key of [lineage, undefined])
            for (const listener of listeners.get(key) ?? []) listener(event, lineage);
          yield event;
        }
      },
    };
  }

  private subscribe(key: string | undefined, listener: ModelStreamListener): () => void {
    const set = this.listeners.get(key) ?? new Set();
    set.add(listener);
    this.listeners.set(key, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }
}
