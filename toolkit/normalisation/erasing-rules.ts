import { canonicalJson, type Json } from '../canonical/canonical-json.js';
import { PROTOCOLS } from '../protocols/registry.js';
import { ruleFunction } from './apply-rule.js';
import type { NormalisationRule } from './types.js';

/**
 * Ordinary, different things a user says: nothing a rule meant for generated values (ids, times,
 * counters) can touch, since none holds a digit, a date or an id.
 */
const TEXTS = [
  'Hello, world.',
  'What is the weather in Paris?',
  'Good morning.',
  'Hi there.',
  'Summarise the notes for me, please.',
  'Yes',
  'No',
  '{"city":"Lyon"}',
];

/**
 * What makes `rules` erase what a request is compared on, or `undefined`. Strict matching compares
 * the normalised live request with the normalised recorded one, so a rule that makes different
 * requests equal turns matching off: any request would then replay any recording. The test is
 * that effect itself: applied in order, the rules must keep requests that differ only in what the
 * user said different. A pattern that matches the empty string is refused too: it applies at
 * every position of every string of every request.
 */
export function erasingRuleProblem(rules: readonly NormalisationRule[]): string | undefined {
  const applied: ((value: Json) => Json)[] = [];
  for (const [index, rule] of rules.entries()) {
    const where = `rule ${index + 1}`;
    if ('replace' in rule && new RegExp(rule.replace, (rule.flags ?? '').replace(/[gy]/g, '')).test('')) {
      return `${where}: the pattern ${JSON.stringify(rule.replace)} matches the empty string, so it rewrites every string of every request; make it match only the generated value it is for`;
    }
    applied.push(ruleFunction(rule));
    const collapsed = collapsedPair(applied);
    if (collapsed !== undefined) {
      return `${where}${index > 0 ? ' (after the rules before it)' : ''} makes requests that differ only in what the user said equal (${JSON.stringify(collapsed[0])} and ${JSON.stringify(collapsed[1])}), so every request would match every recording; make it match only the generated value it is for`;
    }
  }
  return undefined;
}

function collapsedPair(rules: readonly ((value: Json) => Json)[]): [string, string] | undefined {
  // One request per text in the shape of each model API, from its protocol (`WireProtocol.probe`).
  for (const protocol of PROTOCOLS) {
    const seen = new Map<string, string>();
    for (const text of TEXTS) {
      const normalised = canonicalJson(rules.reduce((value, rule) => rule(value), protocol.probe(text)));
      const other = seen.get(normalised);
      if (other !== undefined) return [other, text];
      seen.set(normalised, text);
    }
  }
  return undefined;
}
