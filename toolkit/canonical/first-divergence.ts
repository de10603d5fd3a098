import type { Json } from './canonical-json.js';

/** Where two JSON values first differ, depth first in key order. `undefined` marks a missing value. */
export interface Divergence {
  /** JSONPath-like location, e.g. `messages[3].content`; `(root)` for the whole value. */
  readonly path: string;
  readonly recorded: Json | undefined;
  readonly live: Json | undefined;
}

export function firstDivergence(recorded: Json | undefined, live: Json | undefined, path = ''): Divergence | undefined {
  if (recorded === live) return undefined;
  const here = { path: path === '' ? '(root)' : path, recorded, live };
  if (Array.isArray(recorded) && Array.isArray(live)) {
    const length = Math.max(recorded.length, live.length);
    for (let i = 0; i < length; i++) {
      const found = firstDivergence(recorded[i], live[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (isObject(recorded) && isObject(live)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(live)])].sort();
    for (const key of keys) {
      const found = firstDivergence(recorded[key], live[key], joinKey(path, key));
      if (found) return found;
    }
    return undefined;
  }
  return here;
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function joinKey(path: string, key: string): string {
  const plain = /^[A-Za-z_$][\w$]*$/.test(key);
  if (plain) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}
