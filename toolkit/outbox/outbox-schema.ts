import type { JsonSchema } from '../../harness/schema.js';
import { compileChecker } from '../validation/compile-checker.js';
import type { ChildRefusal, ChildReplayReport } from './types.js';

/** A stable error code as nestcast and Node spell them: `REQUEST_MISMATCH`, `ENOSPC`. */
export const ERROR_CODE = /^[A-Z][A-Z0-9_]*$/;

const code: JsonSchema = { type: 'string', pattern: ERROR_CODE.source };
const text: JsonSchema = { type: 'string', minLength: 1 };
const count: JsonSchema = { type: 'integer', minimum: 0 };

const consumption: JsonSchema = {
  type: 'object',
  required: ['lineage', 'consumed', 'total'],
  additionalProperties: false,
  properties: { lineage: text, consumed: count, total: count },
};

const failedCall: JsonSchema = {
  type: 'object',
  required: ['lineage', 'call'],
  additionalProperties: false,
  properties: {
    lineage: text,
    call: { type: 'integer', minimum: 1 },
    divergence: {
      type: 'object',
      required: ['path'],
      additionalProperties: false,
      properties: { path: { type: 'string' }, recorded: {}, live: {} },
    },
  },
};

export const childReplayReportSchema: JsonSchema = {
  type: 'object',
  required: ['sessions', 'failures'],
  additionalProperties: false,
  properties: {
    sessions: { type: 'array', items: consumption },
    failures: {
      type: 'array',
      items: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: { code, message: text, failedCall },
      },
    },
  },
};

export const childRefusalSchema: JsonSchema = {
  type: 'object',
  required: ['code', 'message'],
  additionalProperties: false,
  properties: { code, message: text },
};

export const checkChildReplayReport = compileChecker<ChildReplayReport>(childReplayReportSchema);
export const checkChildRefusal = compileChecker<ChildRefusal>(childRefusalSchema);
