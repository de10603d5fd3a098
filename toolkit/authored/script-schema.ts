import type { JsonSchema } from '../../harness/schema.js';

const reply = {
  type: 'object',
  additionalProperties: false,
  properties: {
    text: { type: 'string' },
    reasoning: { type: 'string' },
    toolCalls: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'args'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', minLength: 1 },
          name: { type: 'string', minLength: 1 },
          args: { type: ['object', 'string'] },
        },
      },
    },
    finish: { type: 'string', minLength: 1 },
    usage: {
      type: 'object',
      required: ['prompt', 'completion'],
      additionalProperties: false,
      properties: { prompt: { type: 'integer', minimum: 0 }, completion: { type: 'integer', minimum: 0 } },
    },
  },
};

const httpError = {
  type: 'object',
  required: ['httpError'],
  additionalProperties: false,
  properties: {
    httpError: {
      type: 'object',
      required: ['status', 'body'],
      additionalProperties: false,
      properties: {
        status: { type: 'integer', minimum: 400, maximum: 599 },
        body: { type: ['string', 'object'] },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
  },
};

const networkError = {
  type: 'object',
  required: ['networkError'],
  additionalProperties: false,
  properties: { networkError: { enum: ['reset-before-response', 'reset-mid-stream'] }, text: { type: 'string' } },
};

const hang = {
  type: 'object',
  required: ['hang'],
  additionalProperties: false,
  properties: { hang: { type: 'object', additionalProperties: false, properties: { text: { type: 'string' } } } },
};

/** JSON Schema of an authored script (`nestcast model-server --script file.json`). */
export const authoredScriptSchema: JsonSchema = {
  type: 'object',
  required: ['lineages'],
  additionalProperties: false,
  properties: {
    model: { type: 'string', minLength: 1 },
    lineages: {
      type: 'object',
      propertyNames: { pattern: '^[^/]+(/[^/]+)*$' },
      additionalProperties: { type: 'array', items: { oneOf: [reply, httpError, networkError, hang] } },
    },
  },
};
