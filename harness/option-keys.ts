import { closestName } from './closest-name.js';

/**
 * The keys of an options interface, given as an object holding every key of `T` and no other:
 * the compiler keeps the list in step with the interface.
 */
export function optionKeys<T extends object>(keys: { readonly [K in keyof Required<T>]: true }): readonly string[] {
  return Object.keys(keys);
}

/** Options objects inside options, by the key they sit at: `{ toolFilter: ['allow', 'deny'] }`. */
export type NestedOptionKeys = Readonly<Record<string, readonly string[]>>;

/**
 * The first key of `options` that `known` does not hold, then of each object at a `nested` key
 * that its own list does not hold, said as `unknown option "mdoe" (did you mean "mode"?)`, `path`
 * naming where the options sit (`replay.`); `undefined` when every key is known. A JavaScript
 * caller, or a TypeScript one passing a variable, gets no compile error for a misspelt key, and an
 * option read as unset can quietly check less (`{ mdoe: 'all' }` replays the old recording).
 */
export function unknownOption(
  options: object | undefined,
  known: readonly string[],
  path = '',
  nested: NestedOptionKeys = {},
): string | undefined {
  if (options === undefined || options === null) return undefined;
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const meant = closestName(key, known);
    return (
      `unknown option ${JSON.stringify(path + key)}` +
      `${meant === undefined ? '' : ` (did you mean ${JSON.stringify(path + meant)}?)`}; the options${path === '' ? '' : ` of ${path.slice(0, -1)}`} are ${known.join(', ')}`
    );
  }
  for (const [key, keys] of Object.entries(nested)) {
    const inner: unknown = (options as Record<string, unknown>)[key];
    if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) continue;
    const problem = unknownOption(inner, keys, `${path}${key}.`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * For an object that may carry state of its own besides the keys nestcast reads (a user's fuzz
 * factory or fixture, possibly a class instance): its first own key that is not in `known` but is
 * close to one that is, said as `unknown key "hearSteering" (did you mean "hearsSteering"?)`;
 * other keys are the object's own business.
 */
export function misspeltOption(object: object, known: readonly string[]): string | undefined {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    const meant = closestName(key, known);
    if (meant !== undefined) return `unknown key ${JSON.stringify(key)} (did you mean ${JSON.stringify(meant)}?)`;
  }
  return undefined;
}
