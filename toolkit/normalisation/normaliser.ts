import { canonicalize, type Json } from '../canonical/canonical-json.js';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import { ruleFunction } from './apply-rule.js';
import type { Normalisation, NormalisationRule, UnusedRule } from './types.js';
import { checkRules } from './check-rules.js';

export interface Normaliser {
  /** The request with every rule applied (declarative rules in order, then the hook). */
  apply(request: CanonicalRequest): CanonicalRequest;
  /** The declarative rules that have changed nothing so far. */
  unused(): readonly UnusedRule[];
  readonly rules: readonly NormalisationRule[];
}

interface Compiled {
  readonly rule: NormalisationRule;
  readonly apply: (value: Json) => Json;
  used: boolean;
}

/** Compiles the rules once (throwing NORMALISATION_INVALID for a bad one) into a normaliser. */
export function createNormaliser(normalisation: Normalisation = {}, where = 'the normalisation rules'): Normaliser {
  const rules = checkRules(normalisation.rules ?? [], where);
  const compiled: Compiled[] = rules.map((rule) => ({ rule, apply: ruleFunction(rule), used: false }));
  const { hook } = normalisation;
  return {
    rules,
    apply(request) {
      if (compiled.length === 0 && !hook) return request;
      let out: Json = request;
      for (const rule of compiled) {
        const next = rule.apply(out);
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
