import { NestcastError } from '../../harness/errors.js';
import { compileChecker } from '../validation/compile-checker.js';
import { erasingRuleProblem } from './erasing-rules.js';
import { nestedQuantifier } from './nested-quantifier.js';
import { parsePath } from './json-path.js';
import { normalisationRulesSchema } from './rules-schema.js';
import type { NormalisationRule } from './types.js';

export class NormalisationError extends NestcastError<'NORMALISATION_INVALID'> {}

const checkShape = compileChecker<NormalisationRule[]>(normalisationRulesSchema);

/** The rules as given, or NORMALISATION_INVALID naming the rule (`where`, index) and what is wrong with it. */
export function checkRules(rules: unknown, where: string): readonly NormalisationRule[] {
  const shape = checkShape(rules);
  if (!shape.ok) throw invalid(where, `${shape.problem}`);
  shape.value.forEach((rule, index) => {
    if ('replace' in rule) {
      try {
        new RegExp(rule.replace, rule.flags);
      } catch (cause) {
        throw invalid(where, `rule ${index + 1}: ${(cause as Error).message}`, cause);
      }
      const nested = nestedQuantifier(rule.replace);
      if (nested !== undefined) {
        throw invalid(
          where,
          `rule ${index + 1}: ${JSON.stringify(nested)} repeats a group that itself repeats, which can take time exponential in the length of a string it does not match; repeat the inner part only (${JSON.stringify(nested.replace(/[*+]\??$|\{\d+,\d*\}\??$/, ''))} once, or a character class such as [a-z0-9_-]+)`,
        );
      }
    } else if (parsePath(rule.drop) === undefined) {
      throw invalid(
        where,
        `rule ${index + 1}: "${rule.drop}" is not a path like metadata.thread_id or messages[*].content[0].id`,
      );
    }
  });
  const erasing = erasingRuleProblem(shape.value);
  if (erasing !== undefined) throw invalid(where, erasing);
  return shape.value;
}

function invalid(where: string, problem: string, cause?: unknown): NormalisationError {
  return new NormalisationError(
    'NORMALISATION_INVALID',
    `Invalid normalisation rule in ${where}: ${problem}. A rule is {"replace": "<regexp>", "with": "<text>", "flags"?: "i"} or {"drop": "<path>"} (see docs/recording.md).`,
    cause === undefined ? undefined : { cause },
  );
}
