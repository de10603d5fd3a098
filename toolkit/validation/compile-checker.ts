import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../../harness/schema.js';

let ajv: Ajv | undefined;

/**
 * The checkers' ajv, loaded with the first check rather than with this module: `nestcast run`'s
 * own process imports most of the toolkit and checks nothing (ajv is about 100 ms of CPU to load).
 */
function checkersAjv(): Ajv {
  if (ajv !== undefined) return ajv;
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as { Ajv: typeof Ajv };
  // No optimisation pass over the generated code: it makes compiling 2.5-3.5x slower and validating no faster
  // (measured on the cassette schemas), and every process that loads a recording compiles them.
  // No check of each schema against JSON Schema's meta-schema as it compiles: every schema here is
  // one of this repository's own, and compile-checker.test.ts checks them all against it once,
  // instead of every process compiling the meta-schema (30-70 ms of CPU) to check them again.
  ajv = new AjvClass({ allErrors: true, strict: false, code: { optimize: false }, validateSchema: false });
  return ajv;
}

/** Every schema given to `compileChecker` in this process, in order: what compile-checker.test.ts checks. */
const given: JsonSchema[] = [];

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * A validator whose failure names the one most specific problem, e.g. `/response/events/3/delay must be integer`.
 * Compiled on its first check, not at import: every process that loads the toolkit (the run
 * command, each worker, each worker's scenario modules) would otherwise pay for every schema,
 * most of which it never checks anything against.
 */
export function compileChecker<T>(schema: JsonSchema): (value: unknown) => Checked<T> {
  given.push(schema);
  let validate: ValidateFunction<T> | undefined;
  return (value) => {
    validate ??= checkersAjv().compile<T>(schema);
    return validate(value) ? { ok: true, value } : { ok: false, problem: describe(validate.errors) };
  };
}

/** The schemas given to `compileChecker` so far in this process (the modules that call it at load: once imported). */
export function checkerSchemas(): readonly JsonSchema[] {
  return given;
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
