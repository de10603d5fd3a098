import { isRecord } from '../../../harness/is-record.js';

/**
 * Vertex AI's streamed function-call arguments (`streamFunctionCallArguments`): each chunk's
 * `functionCall.partialArgs` sets one value at a JSON path (RFC 9535, `$.a.b[0]['c d']`); a
 * `stringValue` continues the string already at that path. Applied to `args`, built as it goes.
 */
export function applyPartialArgs(args: Record<string, unknown>, partialArgs: readonly unknown[]): void {
  for (const partial of partialArgs) {
    if (!isRecord(partial) || typeof partial['jsonPath'] !== 'string') continue;
    const path = pathSegments(partial['jsonPath']);
    if (path === undefined || path.length === 0) continue;
    const [parent, last] = containerOf(args, path);
    if (parent === undefined) continue;
    const slot = parent as Record<string | number, unknown>;
    if (typeof partial['stringValue'] === 'string') {
      const before = slot[last];
      slot[last] = typeof before === 'string' ? before + partial['stringValue'] : partial['stringValue'];
    } else if ('numberValue' in partial) slot[last] = partial['numberValue'];
    else if ('boolValue' in partial) slot[last] = partial['boolValue'];
    else if ('nullValue' in partial) slot[last] = null;
  }
}

/** `$.a.b[0]['c d']` as `['a', 'b', 0, 'c d']`; `undefined` for a path that does not start at `$` or does not parse. */
function pathSegments(path: string): (string | number)[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: (string | number)[] = [];
  const step = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  step.lastIndex = 1;
  while (step.lastIndex < path.length) {
    const at = step.lastIndex;
    const match = step.exec(path);
    if (!match || step.lastIndex === at) return undefined;
    const [, name, index, single, double] = match;
    segments.push(name ?? (index === undefined ? unescape(single ?? double ?? '') : Number(index)));
  }
  return segments;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

/** The object or array holding the path's last segment, made on the way where missing; `undefined` when a value is in the way. */
function containerOf(
  root: Record<string, unknown>,
  path: readonly (string | number)[],
): [object | undefined, string | number] {
  let current: unknown = root;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i] as string | number;
    const holder = current as Record<string | number, unknown>;
    if (holder[segment] === undefined) holder[segment] = typeof path[i + 1] === 'number' ? [] : {};
    current = holder[segment];
    if (current === null || typeof current !== 'object') return [undefined, segment];
  }
  return [current as object, path[path.length - 1] as string | number];
}
