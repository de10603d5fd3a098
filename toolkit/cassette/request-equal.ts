import type { Json } from '../canonical/canonical-json.js';
import { jsonEqual } from '../canonical/json-equal.js';
import { sharedOf } from './request-encoding.js';

/**
 * `jsonEqual(recorded, live)`, reading a recorded request that shares its session's history log
 * (`sharedRequest`) through the log itself: its history getter copies the whole history, which
 * strict replay would otherwise pay on every call. Allocates nothing.
 */
export function requestEqual(recorded: Json, live: Json): boolean {
  const shared = sharedOf(recorded);
  if (!shared) return jsonEqual(recorded, live);
  const field = shared.field;
  if (live === null || typeof live !== 'object' || Array.isArray(live) || !Object.hasOwn(live, field)) return false;
  const messages = live[field];
  if (!Array.isArray(messages) || messages.length !== shared.count) return false;
  for (let i = 0; i < shared.count; i++) if (!jsonEqual(shared.log[i], messages[i])) return false;
  // The recorded request's other keys are exactly the base's (its history field, if any, is shadowed by the log).
  const base = shared.base;
  let count = 0;
  for (const key in base) {
    if (!Object.hasOwn(base, key) || key === field) continue;
    if (!Object.hasOwn(live, key) || !jsonEqual(base[key], live[key])) return false;
    count++;
  }
  for (const key in live) if (Object.hasOwn(live, key) && key !== field) count--;
  return count === 0;
}
