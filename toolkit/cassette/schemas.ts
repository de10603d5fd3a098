import type { JsonSchema } from '../../harness/schema.js';
import { normalisationRulesSchema } from '../normalisation/rules-schema.js';
import { CALL_PROTOCOLS } from '../protocols/registry.js';

const headers = { type: 'object', additionalProperties: { type: 'string' } };
const delay = { type: 'integer', minimum: 0 };

const sseEvent = {
  oneOf: [
    {
      type: 'object',
      required: ['delay', 'data'],
      additionalProperties: false,
      properties: { delay, data: { type: 'string' }, event: { type: 'string' } },
    },
    {
      type: 'object',
      required: ['delay', 'comment'],
      additionalProperties: false,
      properties: { delay, comment: { type: 'string' } },
    },
  ],
};

const status = { type: 'integer', minimum: 100, maximum: 599 };

const partial = {
  type: 'object',
  required: ['status', 'headers', 'events'],
  additionalProperties: false,
  properties: { status, headers, events: { type: 'array', items: sseEvent } },
};

const failure = {
  oneOf: [
    {
      type: 'object',
      required: ['kind', 'status', 'headers', 'body'],
      additionalProperties: false,
      properties: { kind: { const: 'http' }, status, headers, body: { type: 'string' } },
    },
    {
      type: 'object',
      required: ['kind', 'message'],
      additionalProperties: false,
      properties: { kind: { const: 'network' }, message: { type: 'string' }, code: { type: 'string' }, partial },
    },
    {
      type: 'object',
      required: ['kind', 'message'],
      additionalProperties: false,
      properties: { kind: { enum: ['timeout', 'aborted'] }, message: { type: 'string' }, partial },
    },
  ],
};

const response = {
  oneOf: [
    {
      type: 'object',
      required: ['status', 'headers', 'events', 'done'],
      additionalProperties: false,
      properties: { status, headers, events: { type: 'array', items: sseEvent }, done: { type: 'boolean' } },
    },
    {
      type: 'object',
      required: ['status', 'headers', 'body'],
      additionalProperties: false,
      properties: { status, headers, body: { type: 'string' } },
    },
    { type: 'object', required: ['error'], additionalProperties: false, properties: { error: failure } },
  ],
};

const lineage = { type: 'string', pattern: '^[^/]+(/[^/]+)*$' };

/** JSON Schema of one line of `calls/<lineage>.jsonl`. */
export const callLineSchema: JsonSchema = {
  $id: 'https://nestcast.dev/schemas/cassette-call-line-v1.json',
  type: 'object',
  required: ['lineage', 'call', 'request', 'response'],
  additionalProperties: false,
  properties: {
    lineage,
    call: { type: 'integer', minimum: 1 },
    protocol: { enum: CALL_PROTOCOLS },
    request: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['fingerprint', 'summary'],
          additionalProperties: false,
          properties: {
            fingerprint: { type: 'string', pattern: '^[0-9a-f]{64}$' },
            summary: { type: 'string' },
            base: { type: 'object' },
            added: { type: 'array' },
            reset: { const: true },
          },
        },
      ],
    },
    response,
  },
};

/** JSON Schema of `meta.json`. */
export const metaSchema: JsonSchema = {
  $id: 'https://nestcast.dev/schemas/cassette-meta-v1.json',
  type: 'object',
  required: ['format', 'version', 'provenance', 'lineages'],
  additionalProperties: false,
  properties: {
    format: { const: 'nestcast-cassette' },
    version: { const: 1 },
    provenance: {
      type: 'object',
      required: ['source', 'recordedAt', 'recorder'],
      additionalProperties: false,
      properties: {
        source: { enum: ['recorded', 'authored'] },
        host: { type: 'string' },
        baseUrl: { type: 'string', minLength: 1 },
        model: { type: 'string' },
        importedFrom: { enum: ['nock', 'polly', 'har'] },
        scriptFingerprint: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        recordedAt: { type: 'string', minLength: 1 },
        recorder: { type: 'string', minLength: 1 },
      },
    },
    lineages: { type: 'array', items: lineage, uniqueItems: true },
    normalise: normalisationRulesSchema,
    ambiguities: {
      type: 'array',
      items: {
        type: 'object',
        required: ['lineage', 'candidates'],
        additionalProperties: false,
        properties: {
          lineage,
          candidates: {
            type: 'array',
            minItems: 2,
            items: {
              type: 'object',
              required: ['lineage', 'id', 'name'],
              additionalProperties: false,
              properties: { lineage, id: { type: 'string' }, name: { type: 'string' } },
            },
          },
        },
      },
    },
  },
};
