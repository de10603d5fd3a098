import type { JsonSchema } from '../../harness/schema.js';
import { compileChecker } from '../validation/compile-checker.js';
import { REPORT_FORMAT, REPORT_VERSION, type ReportData, type ReportIndexData } from './types.js';

const time = { type: 'number', minimum: 0 };
const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };
const laneId = { type: 'string', pattern: '^s[1-9][0-9]*$' };
const barId = (letter: string) => ({ type: 'string', pattern: `^s[1-9][0-9]*\\.${letter}[1-9][0-9]*$` });
const count = { type: 'integer', minimum: 0 };
const turnOrStep = { type: 'integer', minimum: 1 };
const kind = { enum: ['replay', 'record', 'recording'] };
const passed = { type: ['boolean', 'null'] };
const duration = { type: ['number', 'null'], minimum: 0 };
const object = (properties: Record<string, unknown>, optional: readonly string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  properties,
});

const totalUsage = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['inputTokens', 'outputTokens'],
  properties: { inputTokens: count, outputTokens: count },
};

const usage = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['inputTokens', 'outputTokens'],
  properties: { inputTokens: count, outputTokens: count, cachedInputTokens: count, reasoningTokens: count },
};

const modelCall = object({
  id: barId('m'),
  call: turnOrStep,
  turn: turnOrStep,
  step: turnOrStep,
  start: time,
  end: time,
  phases: {
    type: 'array',
    items: object({
      kind: { enum: ['wait', 'reasoning', 'text', 'tool-call'] },
      from: { type: 'number', minimum: 0, maximum: 1 },
      to: { type: 'number', minimum: 0, maximum: 1 },
    }),
  },
  finish: { enum: ['stop', 'tool-calls', 'max-tokens', 'content-filter', 'error', 'aborted', 'other', null] },
  request: nullableText,
  messages: {
    oneOf: [
      { type: 'null' },
      {
        type: 'array',
        items: object({
          role: text,
          text,
          toolCalls: { type: 'array', items: object({ name: text, arguments: text }) },
          answers: { type: 'array', items: text },
        }),
      },
    ],
  },
  tools: {
    oneOf: [
      { type: 'null' },
      { type: 'array', items: object({ name: text, description: nullableText, parameters: nullableText }) },
    ],
  },
  parameters: { oneOf: [{ type: 'null' }, { type: 'array', items: object({ name: text, value: text }) }] },
  reply: {
    oneOf: [
      { type: 'null' },
      object({
        text,
        toolCalls: { type: 'array', items: object({ id: text, name: text, arguments: text }) },
        stop: nullableText,
        usage: totalUsage,
      }),
    ],
  },
  text,
  reasoning: text,
  toolCalls: { type: 'array', items: object({ id: text, name: text, arguments: text }) },
  usage,
  error: nullableText,
  failed: { type: 'boolean' },
});

const toolCall = object({
  id: barId('t'),
  callId: text,
  name: text,
  turn: turnOrStep,
  step: turnOrStep,
  start: time,
  end: time,
  args: text,
  output: nullableText,
  isError: { type: 'boolean' },
  child: { oneOf: [laneId, { type: 'null' }] },
  background: { type: 'boolean' },
});

const task = object({
  id: barId('k'),
  taskId: text,
  callId: text,
  child: { oneOf: [laneId, { type: 'null' }] },
  start: time,
  end: time,
  outcome: { enum: ['completed', 'killed', 'failed', 'running'] },
});

const session = object({
  id: laneId,
  lineage: { type: 'string', minLength: 1 },
  parent: { oneOf: [laneId, { type: 'null' }] },
  spawnedBy: nullableText,
  depth: count,
  outOfProcess: { type: 'boolean' },
  seedLength: count,
  start: time,
  end: time,
  outcome: { enum: ['completed', 'aborted', 'error', 'max-steps', 'max-tokens', 'refusal', 'open', 'none'] },
  modelCalls: { type: 'array', items: modelCall },
  toolCalls: { type: 'array', items: toolCall },
  tasks: { type: 'array', items: task },
  marks: { type: 'array', items: object({ kind: { enum: ['cancel', 'error'] }, time, label: text }) },
  usage: totalUsage,
});

/** The JSON embedded in every scenario page; docs/report.md describes each field. */
export const reportDataSchema: JsonSchema = object({
  format: { const: REPORT_FORMAT },
  version: { const: REPORT_VERSION },
  scenario: object({
    name: text,
    kind,
    passed,
    durationMs: duration,
    source: text,
    timing: { enum: ['run', 'recorded'] },
    timingNote: nullableText,
    modelCalls: count,
  }),
  span: time,
  usage: totalUsage,
  failures: {
    type: 'array',
    items: object(
      {
        code: text,
        message: text,
        consequences: { type: 'array', items: object({ code: text, message: text }) },
        lineage: text,
        call: turnOrStep,
        divergence: object({ path: text, recorded: text, live: text }),
      },
      ['lineage', 'call', 'divergence'],
    ),
  },
  sessions: { type: 'array', items: session },
  missing: { type: 'array', items: object({ lineage: text, modelCalls: count }) },
  otherClock: {
    oneOf: [
      { type: 'null' },
      object({
        timing: { enum: ['run', 'recorded'] },
        span: time,
        times: {
          type: 'object',
          propertyNames: { pattern: '^s[1-9][0-9]*(\\.[mtk][1-9][0-9]*)?$' },
          additionalProperties: { type: 'array', items: time, minItems: 2, maxItems: 2 },
        },
        marks: {
          type: 'object',
          propertyNames: laneId,
          additionalProperties: { type: 'array', items: time },
        },
      }),
    ],
  },
});

/** The JSON embedded in the index page. */
export const reportIndexSchema: JsonSchema = object({
  format: { const: REPORT_FORMAT },
  version: { const: REPORT_VERSION },
  scenarios: {
    type: 'array',
    items: object({
      name: text,
      file: text,
      kind,
      passed,
      durationMs: duration,
      sessions: count,
      modelCalls: count,
      failures: count,
      firstFailure: nullableText,
    }),
  },
});

export const checkReportData = compileChecker<ReportData>(reportDataSchema);
export const checkReportIndex = compileChecker<ReportIndexData>(reportIndexSchema);
