/**
 * Errors as text, the one place that knows how. A thrown value can be anything (a revoked Proxy,
 * an Error whose getters throw), so every reader here is total: none of them throws.
 */

/** The stable `code` a thrown value carries, if it carries a string one. */
export function codeOf(error: unknown): string | undefined {
  return guard(() => {
    const code = (error as { code?: unknown } | null | undefined)?.code;
    return typeof code === 'string' ? code : undefined;
  }, undefined);
}

/** An Error's message, or the value itself as text. */
export function messageOf(error: unknown): string {
  return guard(() => (error instanceof Error ? String(error.message) : String(error)), unrenderable(error));
}

/** "Name: message" for an Error, the value as text otherwise: one line for a log. */
export function describeThrown(value: unknown): string {
  return guard(
    () => (value instanceof Error ? `${String(value.name)}: ${String(value.message)}` : String(value)),
    unrenderable(value),
  );
}

/** "CODE: message" for a coded error, the message for another, the value as text otherwise. */
export function describeError(error: unknown): string {
  return guard(() => withCode(error, (code, message) => `${code}: ${message}`), describeThrown(error));
}

/** "message (CODE)": the form a model reads in a tool result (recorded requests carry it, so it stays). */
export function describeErrorCodeLast(error: unknown): string {
  return guard(() => withCode(error, (code, message) => `${message} (${code})`), describeThrown(error));
}

function withCode(error: unknown, join: (code: string, message: string) => string): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? join(code, `${error.message}`) : `${error.message}`;
}

/** The error, then its `cause`, then that one's, …: each value once, so a cycle ends the walk. */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (
    let at = error;
    at !== undefined && !chain.includes(at);
    at = guard(() => (at as { cause?: unknown } | null)?.cause, undefined)
  ) {
    chain.push(at);
  }
  return chain;
}

/** "message (cause's message)": an Error with the one below it, when that one is an Error too. */
export function describeWithCause(error: unknown): string {
  return guard(() => {
    const cause = causeChain(error)[1];
    if (!(error instanceof Error)) return messageOf(error);
    return cause instanceof Error ? `${messageOf(error)} (${messageOf(cause)})` : messageOf(error);
  }, describeThrown(error));
}

/** What went wrong with a file, for a message: its errno code ("ENOENT") when it has one, the error as text otherwise. */
export function errnoText(error: unknown): string {
  return codeOf(error) ?? guard(() => String(error), unrenderable(error));
}

function guard<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

function unrenderable(value: unknown): string {
  try {
    return `<unrenderable thrown value of type ${typeof value}>`;
  } catch {
    return '<unrenderable thrown value>';
  }
}
