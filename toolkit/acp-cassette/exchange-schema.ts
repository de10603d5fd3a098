import type { JsonSchema } from '../../harness/schema.js';
import { compileChecker } from '../validation/compile-checker.js';
import { ACP_EXCHANGE_FORMAT, ACP_EXCHANGE_VERSION, type AcpExchange } from './types.js';

const exit: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'signal'],
  properties: { code: { type: ['integer', 'null'] }, signal: { type: ['string', 'null'] } },
};

const delayMs: JsonSchema = { type: 'number', minimum: 0 };

/** The file format of one ACP exchange; checked with ajv on every load. */
export const exchangeSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['format', 'version', 'lineage', 'command', 'entries', 'stderrTail'],
  properties: {
    format: { const: ACP_EXCHANGE_FORMAT },
    version: { const: ACP_EXCHANGE_VERSION },
    lineage: { type: 'string', minLength: 1 },
    command: { type: 'array', items: { type: 'string' } },
    entries: {
      type: 'array',
      items: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['from', 'delayMs', 'message'],
            properties: {
              from: { enum: ['client', 'agent'] },
              delayMs,
              message: { type: 'object', required: ['jsonrpc'], properties: { jsonrpc: { const: '2.0' } } },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['from', 'delayMs', 'exit'],
            properties: { from: { const: 'agent' }, delayMs, exit },
          },
        ],
      },
    },
    teardownExit: exit,
    stderrTail: { type: 'array', items: { type: 'string' } },
  },
};

export const checkExchange = compileChecker<AcpExchange>(exchangeSchema);
