import { Ajv, type ErrorObject } from 'ajv';
import { callLineSchema, metaSchema } from './schemas.js';
import type { CallLine, CassetteMeta } from './types.js';

const ajv = new Ajv({ allErrors: true, strict: false });
const validateMeta = ajv.compile<CassetteMeta>(metaSchema);
const validateLine = ajv.compile<CallLine>(callLineSchema);

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

export function checkMeta(value: unknown): Checked<CassetteMeta> {
  return validateMeta(value) ? { ok: true, value } : { ok: false, problem: describe(validateMeta.errors) };
}

export function checkCallLine(value: unknown): Checked<CallLine> {
  return validateLine(value) ? { ok: true, value } : { ok: false, problem: describe(validateLine.errors) };
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
