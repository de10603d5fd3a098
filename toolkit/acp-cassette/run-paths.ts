/** Paths of one run that appear in frames and differ between runs; stored as placeholders. */
export interface RunPaths {
  readonly cwd: string;
  readonly sessionsRoot: string | undefined;
}

const CWD = '<cwd>';
const SESSIONS_ROOT = '<sessions-root>';

/** `value` with every occurrence of the run's paths replaced by their placeholders (record, and live client frames in replay). */
export function toPlaceholders<T>(value: T, paths: RunPaths): T {
  return mapStrings(value, (text) => {
    let out = text;
    if (paths.sessionsRoot) out = out.split(paths.sessionsRoot).join(SESSIONS_ROOT);
    return out.split(paths.cwd).join(CWD);
  });
}

/** `value` with the placeholders replaced by this run's paths (agent frames in replay). */
export function fromPlaceholders<T>(value: T, paths: RunPaths): T {
  return mapStrings(value, (text) => {
    let out = text.split(CWD).join(paths.cwd);
    if (paths.sessionsRoot) out = out.split(SESSIONS_ROOT).join(paths.sessionsRoot);
    return out;
  });
}

function mapStrings<T>(value: T, map: (text: string) => string): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => mapStrings(item, map)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      Object.defineProperty(out, key, {
        value: mapStrings(item, map),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out as T;
  }
  return value;
}
