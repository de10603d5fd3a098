import type { Disposer } from './disposer.js';
import { describeThrown } from '../error-text.js';
import type { Logger } from './logger.js';

export type Listener<Payload> = (payload: Payload) => void | Promise<void>;

export interface ListenerFailure {
  readonly event: string;
  readonly error: unknown;
}

/**
 * A typed event bus. `emit` is observe-only: each listener's sync throw or async rejection is
 * reported and contained, and the listeners after it still run. `emitStrict` lets a sync throw
 * propagate, for the few events whose listeners may veto (none in the harness itself).
 */
export class EventBus<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();
  private readonly failures: ListenerFailure[] = [];

  constructor(private readonly logger: Logger) {}

  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): Disposer {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const entry = listener as Listener<never>;
    set.add(entry);
    return () => void set.delete(entry);
  }

  listenerCount<K extends keyof Events>(event: K): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of this.snapshot(event)) {
      try {
        const returned = listener(payload);
        // `instanceof` runs a revoked Proxy's trap and throws: inside the try, contained like any failure.
        if (returned instanceof Promise) returned.catch((error: unknown) => this.contain(event, error));
      } catch (error) {
        this.contain(event, error);
      }
    }
  }

  emitStrict<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of this.snapshot(event)) {
      const returned = listener(payload);
      if (returned instanceof Promise) returned.catch((error: unknown) => this.contain(event, error));
    }
  }

  /** Every listener failure contained so far, oldest first. */
  containedFailures(): readonly ListenerFailure[] {
    return this.failures;
  }

  private snapshot<K extends keyof Events>(event: K): Listener<Events[K]>[] {
    return [...(this.listeners.get(event) ?? [])] as Listener<Events[K]>[];
  }

  /** Never throws, whatever was thrown and whatever the logger does: the listeners after it must still run. */
  private contain(event: keyof Events, error: unknown): void {
    this.failures.push({ event: String(event), error });
    try {
      this.logger.warn(`listener of "${String(event)}" failed (contained): ${describeThrown(error)}`);
    } catch {
      // A logger that throws must not turn a contained failure into an escaped one.
    }
  }
}
