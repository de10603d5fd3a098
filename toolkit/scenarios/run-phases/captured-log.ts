import { createMemoryLogger, type Logger } from '../../../harness/runtime/logger.js';

/**
 * The logger a run hands the harness: the caller's, or one kept in memory whose lines a failed
 * run's report carries (what the harness contained, e.g. a child's stderr, is often the cause).
 */
export function captureLog(given: Logger | undefined): { readonly logger: Logger; readonly lines: readonly string[] } {
  if (given !== undefined) return { logger: given, lines: [] };
  const memory = createMemoryLogger();
  return { logger: memory, lines: memory.lines };
}
