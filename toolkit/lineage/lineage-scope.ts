import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/**
 * Runs `fn` with `lineage` as the calling session for every model call made inside it,
 * including calls made after awaits. For clients that cannot add the lineage header
 * (the official `openai` SDK, for example).
 */
export function withLineage<T>(lineage: string, fn: () => T): T {
  return scope.run(lineage, fn);
}

/** The lineage set by the innermost enclosing `withLineage`, if any. */
export function currentLineage(): string | undefined {
  return scope.getStore();
}
