import type { Disposer } from './disposer.js';

/**
 * Owns disposers and runs them in reverse order on `dispose()`. A plugin registers through its
 * scope, so unloading the plugin removes everything it registered. Disposal is idempotent and
 * runs every disposer even when one fails; the failures are then thrown together.
 */
export class Scope {
  private readonly disposers: Disposer[] = [];
  private disposal: Promise<void> | undefined;

  get disposed(): boolean {
    return this.disposal !== undefined;
  }

  /** Adds a disposer. On an already disposed scope it runs at once, so nothing registered late leaks. */
  add(disposer: Disposer): void {
    if (this.disposal) {
      void Promise.resolve().then(disposer);
      return;
    }
    this.disposers.push(disposer);
  }

  /** A scope disposed with this one (or earlier, on its own). */
  child(): Scope {
    const child = new Scope();
    this.add(() => child.dispose());
    return child;
  }

  dispose(): Promise<void> {
    return (this.disposal ??= this.runDisposers());
  }

  private async runDisposers(): Promise<void> {
    const errors: unknown[] = [];
    for (const disposer of this.disposers.splice(0).reverse()) {
      try {
        await disposer();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposers failed`);
  }
}
