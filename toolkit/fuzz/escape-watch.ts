/** A failure nobody handled, seen at process level while the suite ran. */
export interface Escape {
  readonly kind: 'unhandled rejection' | 'uncaught exception';
  readonly error: unknown;
}

/**
 * Takes over the process's `unhandledRejection` and `uncaughtException` handlers while the suite
 * runs, so that *any* floating failure (the provider's, a listener's, the suite's) is recorded and
 * fails the schedule it happened in, rather than being swallowed or crashing the run without a path.
 * `restore()` gives the handlers back (a test runner's, typically).
 */
export class EscapeWatch {
  readonly escapes: Escape[] = [];
  private readonly saved: {
    rejection: NodeJS.UnhandledRejectionListener[];
    exception: NodeJS.UncaughtExceptionListener[];
  };
  private readonly onRejection = (error: unknown): void =>
    void this.escapes.push({ kind: 'unhandled rejection', error });
  private readonly onException = (error: unknown): void =>
    void this.escapes.push({ kind: 'uncaught exception', error });

  constructor() {
    this.saved = {
      rejection: process.listeners('unhandledRejection'),
      exception: process.listeners('uncaughtException'),
    };
    process.removeAllListeners('unhandledRejection');
    process.removeAllListeners('uncaughtException');
    process.on('unhandledRejection', this.onRejection);
    process.on('uncaughtException', this.onException);
  }

  /** Escapes recorded since `mark` (a previous `escapes.length`). */
  since(mark: number): readonly Escape[] {
    return this.escapes.slice(mark);
  }

  restore(): void {
    process.off('unhandledRejection', this.onRejection);
    process.off('uncaughtException', this.onException);
    for (const listener of this.saved.rejection) process.on('unhandledRejection', listener);
    for (const listener of this.saved.exception) process.on('uncaughtException', listener);
  }
}
