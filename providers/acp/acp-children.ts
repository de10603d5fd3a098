import { SubagentError } from '../seam/errors.js';
import type { SubagentRun } from '../seam/types.js';

/**
 * Everything one acp provider instance has under way: starts in progress and runs handed out.
 * Disposing it aborts the starts (they reject `ABORTED`), disposes the runs, and resolves only
 * when all of them have settled, so a runtime's teardown leaves no child behind.
 */
export class AcpChildren {
  private readonly starts = new Map<AbortController, Promise<unknown>>();
  private readonly runs = new Set<SubagentRun>();
  private disposal: Promise<void> | undefined;

  constructor(private readonly providerName: string) {}

  get disposed(): boolean {
    return this.disposal !== undefined;
  }

  /**
   * Runs `start` with a signal that aborts on the request's signal or on dispose. A run it
   * yields is tracked until disposed.
   */
  async start(requestSignal: AbortSignal, start: (signal: AbortSignal) => Promise<SubagentRun>): Promise<SubagentRun> {
    if (this.disposed) {
      throw new SubagentError(
        'ABORTED',
        `acp provider "${this.providerName}" is disposed (its runtime or plugin was unloaded); nothing was spawned`,
      );
    }
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(requestSignal.reason);
    requestSignal.addEventListener('abort', onAbort, { once: true });
    if (requestSignal.aborted) onAbort();
    const started = (async () => {
      const run = await start(controller.signal);
      if (this.disposed) {
        await run.dispose();
        throw new SubagentError(
          'ABORTED',
          `acp provider "${this.providerName}" was disposed as the child finished starting; the child was stopped`,
        );
      }
      this.runs.add(run);
      return run;
    })();
    this.starts.set(
      controller,
      started.catch(() => undefined),
    );
    try {
      return await started;
    } finally {
      requestSignal.removeEventListener('abort', onAbort);
      this.starts.delete(controller);
    }
  }

  /** Forgets a run once its own dispose resolved. */
  released(run: SubagentRun): void {
    this.runs.delete(run);
  }

  dispose(): Promise<void> {
    return (this.disposal ??= this.teardown());
  }

  private async teardown(): Promise<void> {
    const reason = new SubagentError(
      'ABORTED',
      `acp provider "${this.providerName}" was disposed while the child was starting`,
    );
    for (const controller of this.starts.keys()) controller.abort(reason);
    await Promise.all(this.starts.values());
    await Promise.all([...this.runs].map((run) => run.dispose()));
  }
}
