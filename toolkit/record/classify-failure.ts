import type { CallFailure, PartialResponse } from '../cassette/types.js';

/** What kind of failure a fetch (or body read) error was, judged the way the caller experienced it. */
export function classifyFailure(
  error: unknown,
  signal: AbortSignal,
  partial: PartialResponse | undefined,
): CallFailure {
  const withPartial = partial === undefined ? {} : { partial };
  if (signal.aborted) {
    const reason = signal.reason as { name?: string; message?: string } | undefined;
    const kind = reason?.name === 'TimeoutError' ? 'timeout' : 'aborted';
    return { kind, message: String(reason?.message ?? 'aborted'), ...withPartial };
  }
  const cause = (error as { cause?: { message?: unknown; code?: unknown } } | undefined)?.cause;
  const message =
    typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : String(error);
  const code = typeof cause?.code === 'string' ? { code: cause.code } : {};
  return { kind: 'network', message, ...code, ...withPartial };
}
