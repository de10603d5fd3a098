import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/** The one ajv instance of the harness: tool arguments and output schemas compile here. */
const ajv = new Ajv({ allErrors: true, strict: false });

export type JsonSchema = Record<string, unknown>;

export interface SchemaCheck<T = unknown> {
  (value: unknown): value is T;
  /** Errors of the last failed check, as one readable line. */
  describeErrors(): string;
}

const cache = new WeakMap<object, SchemaCheck>();

/** Compiles (once per schema object) a validator. Throws ajv's error for a schema it cannot compile. */
export function compileSchema<T = unknown>(schema: JsonSchema): SchemaCheck<T> {
  const cached = cache.get(schema);
  if (cached) return cached as SchemaCheck<T>;
  const validate: ValidateFunction = ajv.compile(schema);
  const check = Object.assign((value: unknown): value is T => validate(value) as boolean, {
    describeErrors: () => formatSchemaErrors(validate.errors),
  });
  cache.set(schema, check);
  return check;
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
