/** Longest a shown value gets before it is cut. */
export const SHOWN_CHARS = 120;
/** Characters kept on each side of the first difference of two long strings. */
const WINDOW = 40;
/** Nesting shown before `…`: enough to read, shallow enough that showing cannot exhaust the stack. */
const SHOWN_DEPTH = 12;

/**
 * The recorded and live sides of a divergence as short text for a message. Two strings, one of
 * them long, are each cut to a window around their first differing character, with offsets, so
 * the difference is on screen whatever their length. Never throws: any value, cyclic, deep, or
 * holding what JSON cannot say, gets a text.
 */
export function showValues(recorded: unknown, live: unknown): [string, string] {
  if (
    typeof recorded === 'string' &&
    typeof live === 'string' &&
    (recorded.length > SHOWN_CHARS || live.length > SHOWN_CHARS)
  ) {
    let at = 0;
    while (at < recorded.length && recorded.charCodeAt(at) === live.charCodeAt(at)) at++;
    return [excerpt(recorded, at), excerpt(live, at)];
  }
  return [showValue(recorded), showValue(live)];
}

/** One value as short JSON-like text, cut at `SHOWN_CHARS`; `(absent)` for a missing value. */
export function showValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  const out = { text: '', full: false };
  write(value, 0, new Set(), out);
  return out.full ? `${out.text.slice(0, SHOWN_CHARS)}…${fullLength(value)}` : out.text;
}

/** ` (N chars)` when JSON can say the whole value; a cyclic or overly deep one is just cut. */
function fullLength(value: unknown): string {
  try {
    const length = JSON.stringify(value)?.length;
    return length === undefined ? '' : ` (${length} chars)`;
  } catch {
    return '';
  }
}

function excerpt(text: string, at: number): string {
  const start = Math.max(0, at - WINDOW);
  const end = Math.min(text.length, at + WINDOW);
  const body = JSON.stringify(text.slice(start, end)).slice(1, -1);
  const where = `chars ${start}–${end} of ${text.length}, first difference at ${at}`;
  return `"${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}" (${where})`;
}

interface Out {
  text: string;
  full: boolean;
}

function write(value: unknown, depth: number, onPath: Set<object>, out: Out): void {
  if (out.full) return;
  const put = (text: string): void => {
    out.text += text;
    if (out.text.length > SHOWN_CHARS) out.full = true;
  };
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return put(String(value));
  if (typeof value === 'string')
    return put(JSON.stringify(value.length > SHOWN_CHARS ? value.slice(0, SHOWN_CHARS + 1) : value));
  if (typeof value !== 'object') return put(`[${typeof value}]`);
  if (onPath.has(value)) return put('[cycle]');
  if (depth >= SHOWN_DEPTH) return put(Array.isArray(value) ? '[…]' : '{…}');
  onPath.add(value);
  if (Array.isArray(value)) {
    put('[');
    for (let i = 0; i < value.length && !out.full; i++) {
      if (i > 0) put(',');
      write(value[i], depth + 1, onPath, out);
    }
    put(']');
  } else {
    put('{');
    let first = true;
    for (const key of Object.keys(value)) {
      if (out.full) break;
      if (!first) put(',');
      first = false;
      put(`${JSON.stringify(key)}:`);
      write((value as Record<string, unknown>)[key], depth + 1, onPath, out);
    }
    put('}');
  }
  onPath.delete(value);
}

/** A path short enough to read: a value nested thousands deep has a path as long. */
export function showPath(path: string): string {
  return path.length <= SHOWN_CHARS ? path : `…${path.slice(-SHOWN_CHARS)}`;
}
