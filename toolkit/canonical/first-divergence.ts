import type { Json } from './canonical-json.js';

/** Where two JSON values first differ, depth first in key order. `undefined` marks a missing value. */
export interface Divergence {
  /** JSONPath-like location, e.g. `messages[3].content`; `(root)` for the whole value. */
  readonly path: string;
  readonly recorded: Json | undefined;
  readonly live: Json | undefined;
}

interface Frame {
  readonly recorded: Json | undefined;
  readonly live: Json | undefined;
  readonly path: string;
  /** Keys (objects) or indexes (arrays) still to visit, in visiting order. */
  readonly children: readonly (string | number)[];
  next: number;
}

/**
 * Never throws, whatever it is given: the walk keeps its own stack (a value nested 20,000 deep
 * is fine), reads only own keys (`constructor`, `__proto__` are plain keys), and stops at a
 * cycle, so a failure report can always be built.
 */
export function firstDivergence(recorded: Json | undefined, live: Json | undefined): Divergence | undefined {
  const onPath = new Set<object>();
  const stack: Frame[] = [];
  const visit = (r: Json | undefined, l: Json | undefined, path: string): Divergence | undefined => {
    if (r === l) return undefined;
    const here = { path: path === '' ? '(root)' : path, recorded: r, live: l };
    const bothArrays = Array.isArray(r) && Array.isArray(l);
    if (!bothArrays && !(isObject(r) && isObject(l))) return here;
    if (onPath.has(r as object) || onPath.has(l as object))
      return onPath.has(r as object) && onPath.has(l as object) ? undefined : here;
    onPath.add(r as object).add(l as object);
    const children = bothArrays
      ? Array.from({ length: Math.max((r as Json[]).length, (l as Json[]).length) }, (_, i) => i)
      : [...new Set([...Object.keys(r as object), ...Object.keys(l as object)])].sort();
    stack.push({ recorded: r, live: l, path, children, next: 0 });
    return undefined;
  };
  const found = visit(recorded, live, '');
  if (found) return found;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next >= frame.children.length) {
      stack.pop();
      onPath.delete(frame.recorded as object);
      onPath.delete(frame.live as object);
      continue;
    }
    const child = frame.children[frame.next++] as string | number;
    const diverged = visit(own(frame.recorded, child), own(frame.live, child), childPath(frame.path, child));
    if (diverged) return diverged;
  }
  return undefined;
}

function own(value: Json | undefined, child: string | number): Json | undefined {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, child)
    ? (value as Record<string, Json>)[child]
    : undefined;
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function childPath(path: string, child: string | number): string {
  if (typeof child === 'number') return `${path}[${child}]`;
  const plain = /^[A-Za-z_$][\w$]*$/.test(child);
  if (plain) return path === '' ? child : `${path}.${child}`;
  return `${path}[${JSON.stringify(child)}]`;
}
