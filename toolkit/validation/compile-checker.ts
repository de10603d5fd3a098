import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { JsonSchema } from '../../harness/schema.js';

// No optimisation pass over the generated code: it makes compiling 2.5-3.5x slower and validating no faster
// (measured on the cassette schemas), and every process that loads a recording compiles them.
const ajv = new Ajv({ allErrors: true, strict: false, code: { optimize: false } });

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * A validator whose failure names the one most specific problem, e.g. `/response/events/3/delay must be integer`.
 * Compiled on its first check, not at import: every process that loads the toolkit (the run
 * command, each worker, each worker's scenario modules) would otherwise pay for every schema,
 * most of which it never checks anything against.
 */
export function compileChecker<T>(schema: JsonSchema): (value: unknown) => Checked<T> {
  let validate: ValidateFunction<T> | undefined;
  return (value) => {
    validate ??= ajv.compile<T>(schema);
    return validate(value) ? { ok: true, value } : { ok: false, problem: describe(validate.errors) };
  };
}

/**
 * The most specific schema error: with `oneOf` unions ajv reports every branch, and the
 * deepest instance path is the one that names the field actually wrong.
 */
function describe(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'does not match the schema';
  const deepest = errors.reduce((best, error) => (depth(error) > depth(best) ? error : best));
  const where = deepest.instancePath === '' ? '(root)' : deepest.instancePath;
  const extra =
    deepest.keyword === 'additionalProperties'
      ? ` ("${String(deepest.params['additionalProperty'])}")`
      : deepest.keyword === 'enum' || deepest.keyword === 'const'
        ? ` (${JSON.stringify(deepest.params['allowedValues'] ?? deepest.params['allowedValue'])})`
        : '';
  return `${where} ${deepest.message ?? deepest.keyword}${extra}`;
}

function depth(error: ErrorObject): number {
  return error.instancePath.split('/').length * 2 + (error.keyword === 'oneOf' ? 0 : 1);
}
