export { createNormaliser } from './normaliser.js';
export { checkRules } from './check-rules.js';
export { normalisationRulesSchema } from './rules-schema.js';
export type { Normalisation, NormalisationRule, UnusedRule } from './types.js';
