export { createNormaliser, type Normaliser } from './normaliser.js';
export { checkRules, NormalisationError } from './check-rules.js';
export { normalisationRulesSchema } from './rules-schema.js';
export type { Normalisation, NormalisationHook, NormalisationRule, UnusedRule } from './types.js';
