import { canonicalize, type Json } from '../canonical/canonical-json.js';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import { parsePath, type PathStep } from './json-path.js';
import type { Normalisation, NormalisationRule, UnusedRule } from './types.js';
import { checkRules } from './check-rules.js';

export interface Normaliser {
  /** The request with every rule applied (declarative rules in order, then the hook). */
  apply(request: CanonicalRequest): CanonicalRequest;
  /** The declarative rules that have changed nothing so far. */
  unused(): readonly UnusedRule[];
  readonly rules: readonly NormalisationRule[];
}

type Compiled = { readonly rule: NormalisationRule; used: boolean } & (
  { readonly pattern: RegExp; readonly replacement: string } | { readonly steps: readonly PathStep[] }
);

/** Compiles the rules once (throwing NORMALISATION_INVALID for a bad one) into a normaliser. */
export function createNormaliser(normalisation: Normalisation = {}, where = 'the normalisation rules'): Normaliser {
  const rules = checkRules(normalisation.rules ?? [], where);
  const compiled: Compiled[] = rules.map((rule) =>
    'replace' in rule
      ? {
          rule,
          used: false,
          pattern: new RegExp(rule.replace, `${(rule.flags ?? '').replace('g', '')}g`),
          replacement: rule.with,
        }
      : { rule, used: false, steps: parsePath(rule.drop) as PathStep[] },
  );
  const { hook } = normalisation;
  return {
    rules,
    apply(request) {
      if (compiled.length === 0 && !hook) return request;
      let out: Json = request;
      for (const rule of compiled) {
        const next: Json =
          'pattern' in rule ? replaceStrings(out, rule.pattern, rule.replacement) : dropPath(out, rule.steps, 0);
        if (next !== out) rule.used = true;
        out = next;
      }
      const normalised = out as CanonicalRequest;
      return hook ? (canonicalize(hook(normalised)) as CanonicalRequest) : normalised;
    },
    unused: () =>
      compiled
        .filter((rule) => !rule.used)
        .map(({ rule }) => ({
          code: 'UNUSED_RULE' as const,
          rule,
          message: `Normalisation rule ${JSON.stringify(rule)} changed nothing in any request of this recording; check its ${'replace' in rule ? 'pattern' : 'path'} against the requests (nestcast inspect --calls) or remove it.`,
        })),
  };
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
