import { isRecord } from '../is-record.js';
import type { SessionEventType, StepFinish, TurnEndReason } from './types.js';

export const SESSION_EVENT_TYPES = [
  'user/message',
  'turn/start',
  'step/start',
  'assistant/message',
  'tool/call',
  'tool/result',
  'step/end',
  'turn/end',
] as const satisfies readonly SessionEventType[];

const STEP_FINISHES: readonly StepFinish[] = [
  'stop',
  'tool-calls',
  'max-tokens',
  'content-filter',
  'error',
  'aborted',
  'other',
];
const TURN_END_REASONS: readonly TurnEndReason[] = [
  'completed',
  'aborted',
  'error',
  'max-steps',
  'max-tokens',
  'refusal',
];

type Fields = Record<string, unknown>;

export function isSessionEventType(type: unknown): type is SessionEventType {
  return (SESSION_EVENT_TYPES as readonly unknown[]).includes(type);
}

const isPositiveInt = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 1;
const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;

function positionProblem(data: Fields, withStep: boolean): string | null {
  if (!isPositiveInt(data['turn'])) return 'data.turn must be a positive integer';
  if (withStep && !isPositiveInt(data['step'])) return 'data.step must be a positive integer';
  return null;
}

function textBlocksProblem(content: unknown): string | null {
  if (!Array.isArray(content)) return 'data.content must be an array of blocks';
  const bad = content.findIndex(
    (block) => !isRecord(block) || block['type'] !== 'text' || typeof block['text'] !== 'string',
  );
  return bad === -1 ? null : `data.content[${bad}] must be {type:'text', text:string}`;
}

function assistantBlockProblem(block: unknown): string | null {
  if (!isRecord(block)) return 'is not an object';
  if (block['type'] === 'text' || block['type'] === 'reasoning') {
    return typeof block['text'] === 'string' ? null : 'needs a string text';
  }
  if (block['type'] === 'tool-call') {
    const ok =
      typeof block['id'] === 'string' && typeof block['name'] === 'string' && typeof block['arguments'] === 'string';
    return ok ? null : 'tool-call block needs string id, name and arguments';
  }
  return `has unknown type ${JSON.stringify(block['type'])}`;
}

function assistantContentProblem(content: unknown): string | null {
  if (!Array.isArray(content)) return 'data.content must be an array of blocks';
  for (const [index, block] of content.entries()) {
    const problem = assistantBlockProblem(block);
    if (problem !== null) return `data.content[${index}] ${problem}`;
  }
  return null;
}

function usageProblem(usage: unknown): string | null {
  if (usage === undefined) return null;
  if (!isRecord(usage)) return 'data.usage must be an object';
  for (const key of ['inputTokens', 'outputTokens']) {
    if (!isCount(usage[key])) return `data.usage.${key} must be a non-negative integer`;
  }
  for (const key of ['cachedInputTokens', 'reasoningTokens']) {
    if (usage[key] !== undefined && !isCount(usage[key])) return `data.usage.${key} must be a non-negative integer`;
  }
  return null;
}

function turnErrorProblem(error: unknown): string | null {
  if (error === undefined) return null;
  const ok = isRecord(error) && typeof error['code'] === 'string' && typeof error['message'] === 'string';
  return ok ? null : 'data.error must be {code:string, message:string}';
}

const nonEmptyString = (value: unknown): boolean => typeof value === 'string' && value.length > 0;

/** What is wrong with an event's type and data, or null when they match `SessionEventMap`. */
export function eventShapeProblem(type: unknown, data: unknown): string | null {
  if (!isSessionEventType(type))
    return `unknown event type ${JSON.stringify(type)}; known: ${SESSION_EVENT_TYPES.join(', ')}`;
  if (!isRecord(data)) return `${type} data must be an object`;
  const problem = dataProblem(type, data);
  return problem === null ? null : `${type}: ${problem}`;
}

function dataProblem(type: SessionEventType, data: Fields): string | null {
  switch (type) {
    case 'user/message':
      return textBlocksProblem(data['content']);
    case 'turn/start':
      return positionProblem(data, false);
    case 'step/start':
      return positionProblem(data, true);
    case 'assistant/message':
      return positionProblem(data, true) ?? assistantContentProblem(data['content']);
    case 'tool/call':
      if (!nonEmptyString(data['id'])) return 'data.id must be a non-empty string';
      if (!nonEmptyString(data['name'])) return 'data.name must be a non-empty string';
      if (!('args' in data)) return 'data.args is missing';
      return positionProblem(data, true);
    case 'tool/result':
      if (!nonEmptyString(data['id'])) return 'data.id must be a non-empty string';
      if (typeof data['output'] !== 'string') return 'data.output must be a string';
      if (typeof data['isError'] !== 'boolean') return 'data.isError must be a boolean';
      return positionProblem(data, true);
    case 'step/end':
      if (!STEP_FINISHES.includes(data['finish'] as StepFinish))
        return `data.finish must be one of ${STEP_FINISHES.join(', ')}`;
      return positionProblem(data, true) ?? usageProblem(data['usage']);
    case 'turn/end':
      if (!TURN_END_REASONS.includes(data['reason'] as TurnEndReason)) {
        return `data.reason must be one of ${TURN_END_REASONS.join(', ')}`;
      }
      return positionProblem(data, false) ?? turnErrorProblem(data['error']);
  }
}
