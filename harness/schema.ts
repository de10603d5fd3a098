import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/** The one ajv instance of the harness: tool arguments and output schemas compile here. */
// No optimisation pass over the generated code: it makes compiling 2.5-3.5x slower and validating no faster
// (measured on the cassette schemas), and every process that loads a recording compiles them.
const ajv = new Ajv({ allErrors: true, strict: false, code: { optimize: false } });

export type JsonSchema = Record<string, unknown>;

export interface SchemaCheck<T = unknown> {
  (value: unknown): value is T;
  /** Errors of the last failed check, as one readable line. */
  describeErrors(): string;
}

const cache = new WeakMap<object, SchemaCheck>();
/**
 * Checks by schema text: each scenario's runtime builds its tools' schemas anew, and compiling
 * the same schema again per scenario cost more than the rest of registering them (and ajv kept
 * every copy).
 */
const byText = new Map<string, SchemaCheck>();

/** Compiles (once per schema, by object and by content) a validator. Throws ajv's error for a schema it cannot compile. */
export function compileSchema<T = unknown>(schema: JsonSchema): SchemaCheck<T> {
  const cached = cache.get(schema);
  if (cached) return cached as SchemaCheck<T>;
  const text = schemaText(schema);
  const same = text === undefined ? undefined : byText.get(text);
  if (same) {
    cache.set(schema, same);
    return same as SchemaCheck<T>;
  }
  const validate: ValidateFunction = ajv.compile(schema);
  const check = Object.assign((value: unknown): value is T => validate(value) as boolean, {
    describeErrors: () => formatSchemaErrors(validate.errors),
  });
  cache.set(schema, check);
  if (text !== undefined) byText.set(text, check);
  return check;
}

/**
 * The schema as JSON text when that text says all of it (plain objects, arrays, strings, finite
 * numbers, booleans, null), else undefined: such a schema, or one with an `$id` (which ajv
 * registers, and refuses twice), is compiled per object as before.
 */
function schemaText(schema: JsonSchema): string | undefined {
  let plain = true;
  const text = JSON.stringify(schema, (key, value: unknown) => {
    if (key === '$id') plain = false;
    else if (
      value === undefined ||
      typeof value === 'function' ||
      typeof value === 'bigint' ||
      typeof value === 'symbol'
    )
      plain = false;
    else if (typeof value === 'number' && !Number.isFinite(value)) plain = false;
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) plain = false;
    }
    return value;
  });
  return plain ? text : undefined;
}

export function formatSchemaErrors(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'no details';
  return errors
    .map((error) => {
      const where = error.instancePath === '' ? '(root)' : error.instancePath;
      const extra = error.keyword === 'additionalProperties' ? ` "${String(error.params['additionalProperty'])}"` : '';
      return `${where} ${error.message ?? error.keyword}${extra}`;
    })
    .join('; ');
}
