import type { Json } from '../canonical/canonical-json.js';
import { parsePath, type PathStep } from './json-path.js';
import type { NormalisationRule } from './types.js';

/** A checked rule as a function of a request (or any JSON): the same value back when it changed nothing. */
export function ruleFunction(rule: NormalisationRule): (value: Json) => Json {
  if ('replace' in rule) {
    const pattern = new RegExp(rule.replace, `${(rule.flags ?? '').replace('g', '')}g`);
    return (value) => replaceStrings(value, pattern, rule.with);
  }
  const steps = parsePath(rule.drop) as PathStep[];
  return (value) => dropPath(value, steps, 0);
}

/** Returns the same object when nothing matched, so callers can tell a rule was used. */
function replaceStrings(value: Json, pattern: RegExp, replacement: string): Json {
  if (typeof value === 'string') {
    pattern.lastIndex = 0;
    return pattern.test(value) ? value.replace(pattern, replacement) : value;
  }
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = replaceStrings(item, pattern, replacement);
      changed ||= next !== item;
      return next;
    });
    return changed ? out : value;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const next = replaceStrings(item, pattern, replacement);
      changed ||= next !== item;
      return [key, next] as const;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

function dropPath(value: Json, steps: readonly PathStep[], at: number): Json {
  const step = steps[at];
  if (step === undefined || value === null || typeof value !== 'object') return value;
  const last = at === steps.length - 1;
  if (Array.isArray(value)) {
    if ('key' in step) return value;
    let changed = false;
    const out: Json[] = [];
    value.forEach((item, index) => {
      const hit = 'any' in step || step.index === index;
      if (hit && last) {
        changed = true;
        return;
      }
      const next = hit ? dropPath(item, steps, at + 1) : item;
      changed ||= next !== item;
      out.push(next);
    });
    return changed ? out : value;
  }
  if ('index' in step) return value;
  let changed = false;
  const entries: [string, Json][] = [];
  for (const [key, item] of Object.entries(value)) {
    const hit = 'any' in step || step.key === key;
    if (hit && last) {
      changed = true;
      continue;
    }
    const next = hit ? dropPath(item, steps, at + 1) : item;
    changed ||= next !== item;
    entries.push([key, next]);
  }
  return changed ? Object.fromEntries(entries) : value;
}
