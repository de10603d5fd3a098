import { LINEAGE_HEADER } from '../../harness/llm/types.js';
import type { JsonSchema } from '../../harness/schema.js';
import { compileChecker } from '../validation/compile-checker.js';
import type { HttpExchange } from './http-exchange.js';
import { InteropError } from './interop-error.js';

/** One definition as nock's recorder writes it (`output_objects: true`, and `nock.back` files). */
interface NockDefinition {
  readonly scope: string;
  readonly method?: string;
  readonly path: string;
  readonly body?: unknown;
  readonly status?: number;
  readonly response?: unknown;
  readonly rawHeaders?: Readonly<Record<string, string | readonly string[]>> | readonly string[];
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  readonly reqheaders?: Readonly<Record<string, string | readonly string[]>>;
  readonly responseIsBinary?: boolean;
  /** Written by `nestcast export --to nock`: the session, call and request nock itself does not keep. */
  readonly _nestcast?: { readonly lineage?: string; readonly request?: string };
}

const headerMap = {
  type: 'object',
  additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
} as const;

const definitionSchema: JsonSchema = {
  type: 'object',
  required: ['scope', 'path'],
  properties: {
    scope: { type: 'string', minLength: 1 },
    method: { type: 'string', minLength: 1 },
    path: { type: 'string' },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    rawHeaders: { anyOf: [headerMap, { type: 'array', items: { type: 'string' } }] },
    headers: headerMap,
    reqheaders: headerMap,
    responseIsBinary: { type: 'boolean' },
    _nestcast: {
      type: 'object',
      properties: { lineage: { type: 'string', minLength: 1 }, request: { type: 'string' } },
    },
  },
};

const checkDefinition = compileChecker<NockDefinition>(definitionSchema);

/** The exchanges of a nock fixture: a JSON array of definitions that `nock.define()` accepts. */
export function readNockFixture(parsed: unknown, file: string): HttpExchange[] {
  if (!Array.isArray(parsed)) {
    throw new InteropError(
      'IMPORT_INVALID',
      `${file}: a nock fixture is a JSON array of definitions (what nock.recorder.play() returns with output_objects, or a nock.back file); this is ${describeJson(parsed)}.`,
    );
  }
  return parsed.map((entry: unknown, index) => {
    const checked = checkDefinition(entry);
    if (!checked.ok)
      throw new InteropError(
        'IMPORT_INVALID',
        `${file}: definition ${index}: ${checked.problem}. Fix that entry or remove it from the fixture.`,
      );
    return exchangeOf(checked.value, index, file);
  });
}

function exchangeOf(definition: NockDefinition, index: number, file: string): HttpExchange {
  let url: string;
  try {
    url = new URL(`${new URL(definition.scope).origin}${definition.path}`).href;
  } catch (cause) {
    throw new InteropError(
      'IMPORT_INVALID',
      `${file}: definition ${index}: /scope ${JSON.stringify(definition.scope)} with /path ${JSON.stringify(definition.path)} is not a URL.`,
      { cause },
    );
  }
  return {
    index,
    method: (definition.method ?? 'GET').toUpperCase(),
    url,
    requestHeaders: {
      ...headersOf(definition.reqheaders),
      ...(definition._nestcast?.lineage ? { [LINEAGE_HEADER]: definition._nestcast.lineage } : {}),
    },
    requestBody: definition.body === undefined ? (definition._nestcast?.request ?? '') : bodyText(definition.body),
    status: definition.status ?? 200,
    responseHeaders: headersOf(definition.rawHeaders ?? definition.headers),
    responseBody: responseText(definition, index, file),
  };
}

/** nock keeps a JSON body parsed and anything else as the text it was. */
function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function responseText(definition: NockDefinition, index: number, file: string): string {
  const { response } = definition;
  if (definition.responseIsBinary === true) {
    if (typeof response !== 'string' || !/^(?:[0-9a-f]{2})*$/i.test(response)) {
      throw new InteropError(
        'IMPORT_INVALID',
        `${file}: definition ${index}: /response must be hex text when responseIsBinary is true.`,
      );
    }
    return Buffer.from(response, 'hex').toString('utf8');
  }
  if (Array.isArray(response)) {
    throw new InteropError(
      'IMPORT_INVALID',
      `${file}: definition ${index}: /response is an array of encoded chunks (a gzip/br response). Record with the client's "accept-encoding: identity", or decode the fixture first.`,
    );
  }
  return bodyText(response);
}

function headersOf(headers: NockDefinition['rawHeaders']): Record<string, string> {
  const result: Record<string, string> = {};
  if (headers === undefined) return result;
  if (Array.isArray(headers)) {
    // nock's raw form: name, value, name, value, …
    for (let i = 0; i + 1 < headers.length; i += 2) result[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
    return result;
  }
  for (const [name, value] of Object.entries(headers))
    result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  return result;
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a JSON ${typeof value}`;
}
