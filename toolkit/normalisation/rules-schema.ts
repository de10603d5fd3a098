import type { JsonSchema } from '../../harness/schema.js';

/** JSON Schema of the `normalise` list of meta.json and scenario definitions. */
export const normalisationRulesSchema: JsonSchema = {
  type: 'array',
  items: {
    oneOf: [
      {
        type: 'object',
        required: ['replace', 'with'],
        additionalProperties: false,
        properties: {
          replace: { type: 'string', minLength: 1 },
          with: { type: 'string' },
          flags: { type: 'string', pattern: '^[imsuy]*$' },
        },
      },
      {
        type: 'object',
        required: ['drop'],
        additionalProperties: false,
        properties: { drop: { type: 'string', minLength: 1 } },
      },
    ],
  },
};
