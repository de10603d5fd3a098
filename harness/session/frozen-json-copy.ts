import { HarnessError } from '../errors.js';

/**
 * A deep, frozen copy of `value` that is exactly what a JSON round-trip gives back,
 * so what a session holds in memory equals what reloading its file yields.
 * Object properties set to `undefined` are omitted (as JSON does); anything JSON
 * would silently change (functions, NaN, Dates, class instances, holes, cycles) is refused.
 */
export function frozenJsonCopy<T>(value: T, where: string, name = 'value'): T {
  return copy(value, where, name, new Set()) as T;
}

function copy(value: unknown, where: string, path: string, ancestors: Set<object>): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) refuse(where, path, `is ${String(value)}, which JSON cannot hold`);
    return value === 0 ? 0 : value;
  }
  if (typeof value !== 'object') refuse(where, path, `is a ${typeof value}, which JSON cannot hold`);
  if (ancestors.has(value)) refuse(where, path, 'refers back to itself (a cycle)');
  ancestors.add(value);
  try {
    return Array.isArray(value) ? copyArray(value, where, path, ancestors) : copyObject(value, where, path, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function copyArray(value: unknown[], where: string, path: string, ancestors: Set<object>): readonly unknown[] {
  const result: unknown[] = [];
  for (let index = 0; index < value.length; index++) {
    if (!(index in value) || value[index] === undefined) refuse(where, `${path}[${index}]`, 'is a hole or undefined');
    result.push(copy(value[index], where, `${path}[${index}]`, ancestors));
  }
  return Object.freeze(result);
}

function copyObject(value: object, where: string, path: string, ancestors: Set<object>): object {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'exotic object';
    refuse(where, path, `is a ${kind}, not a plain object`);
  }
  const entries: [string, unknown][] = [];
  for (const [key, field] of Object.entries(value)) {
    if (field !== undefined) entries.push([key, copy(field, where, `${path}.${key}`, ancestors)]);
  }
  // fromEntries defines own properties: an assignment would turn a `__proto__` key (a model's tool
  // arguments may have one) into a prototype, and the log in memory would differ from its file.
  return Object.freeze(Object.fromEntries(entries));
}

function refuse(where: string, path: string, problem: string): never {
  throw new HarnessError(
    'INVALID_EVENT',
    `${where}: ${path} ${problem}. Session data must be plain JSON: objects, arrays, strings, finite numbers, booleans, null.`,
  );
}
