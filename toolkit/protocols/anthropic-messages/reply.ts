import { isRecord } from '../../../harness/is-record.js';
import { canonicalJson } from '../../canonical/canonical-json.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import type { NeutralToolCall, ReplyOf, TokenUsage } from '../wire-protocol.js';

interface Block {
  type: string;
  text: string;
  id: string;
  name: string;
  /** The `input` the block started with: the arguments when no `input_json_delta` carries any. */
  input: unknown;
  json: string;
}

/**
 * The assistant message an Anthropic answer becomes in the next request: text blocks joined and
 * `tool_use` blocks as tool calls, from a `message_start … message_stop` stream (blocks by index,
 * `input_json_delta` fragments joined) or a JSON message. `undefined` for a failure: an HTTP error,
 * an `error` event mid-stream, or a body that is no message.
 */
export function replyOf(response: RecordedResponse): ReplyOf | undefined {
  if ('error' in response || response.status >= 400) return undefined;
  if ('body' in response) return replyOfMessage(parse(response.body));
  const blocks = new Map<number, Block>();
  let usage: { input?: number; output?: number } = {};
  let started = false;
  for (const event of response.events) {
    if (!('data' in event)) continue;
    const data = parse(event.data);
    if (!isRecord(data)) continue;
    const type = data['type'];
    if (type === 'error') return undefined;
    if (type === 'message_start' && isRecord(data['message'])) {
      started = true;
      usage = usageOf(data['message']['usage'], usage);
    } else if (type === 'message_delta') usage = usageOf(data['usage'], usage);
    else if (type === 'content_block_start' && isRecord(data['content_block'])) {
      const block = data['content_block'];
      blocks.set(Number(data['index']), {
        type: String(block['type'] ?? ''),
        text: typeof block['text'] === 'string' ? block['text'] : '',
        id: String(block['id'] ?? ''),
        name: String(block['name'] ?? ''),
        input: block['input'],
        json: '',
      });
    } else if (type === 'content_block_delta' && isRecord(data['delta'])) {
      const block = blocks.get(Number(data['index']));
      const delta = data['delta'];
      if (!block) continue;
      if (delta['type'] === 'text_delta' && typeof delta['text'] === 'string') block.text += delta['text'];
      if (delta['type'] === 'input_json_delta' && typeof delta['partial_json'] === 'string')
        block.json += delta['partial_json'];
    }
  }
  if (!started) return undefined;
  const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  return assemble(ordered, tokenUsage(usage));
}

function replyOfMessage(message: unknown): ReplyOf | undefined {
  if (!isRecord(message) || message['type'] !== 'message' || !Array.isArray(message['content'])) return undefined;
  const blocks = message['content'].filter(isRecord).map((block): Block => ({
    type: String(block['type'] ?? ''),
    text: typeof block['text'] === 'string' ? block['text'] : '',
    id: String(block['id'] ?? ''),
    name: String(block['name'] ?? ''),
    input: block['input'],
    json: '',
  }));
  return assemble(blocks, tokenUsage(usageOf(message['usage'], {})));
}

/**
 * Whether a stream surely has a reply: no event mentions `error` (anywhere, so an `error` event
 * however it is written is caught; a mention in the text only costs a parse), and its first event,
 * the only one parsed, starts the message.
 */
export function surelyReplies(response: RecordedResponse): boolean {
  if (!('events' in response) || response.status >= 400) return false;
  let first: string | undefined;
  for (const event of response.events) {
    if (!('data' in event)) continue;
    if (event.data.includes('error')) return false;
    first ??= event.data;
  }
  const data = first === undefined ? undefined : parse(first);
  return isRecord(data) && data['type'] === 'message_start' && isRecord(data['message']);
}

function assemble(blocks: readonly Block[], usage: TokenUsage | undefined): ReplyOf {
  let text = '';
  const toolCalls: NeutralToolCall[] = [];
  for (const block of blocks) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use')
      toolCalls.push({ id: block.id, name: block.name, arguments: argumentsOf(block) });
  }
  return {
    message: { role: 'assistant', text, ...(toolCalls.length > 0 ? { toolCalls } : {}) },
    ...(usage ? { usage } : {}),
  };
}

/** The streamed fragments as canonical JSON when they parse, else as sent; the start's `input` when none came. */
function argumentsOf(block: Block): string {
  if (block.json === '') return canonicalJson(block.input ?? {});
  const parsed = parse(block.json);
  return parsed === undefined ? block.json : canonicalJson(parsed);
}

/**
 * Input counts every prompt token: Anthropic reports the cached ones apart. A later report
 * (`message_delta`) replaces an earlier one field by field: its counts are cumulative.
 */
function usageOf(raw: unknown, previous: { input?: number; output?: number }): { input?: number; output?: number } {
  if (!isRecord(raw)) return previous;
  const count = (key: string): number => (typeof raw[key] === 'number' ? raw[key] : 0);
  const next = { ...previous };
  if (typeof raw['input_tokens'] === 'number')
    next.input = count('input_tokens') + count('cache_creation_input_tokens') + count('cache_read_input_tokens');
  if (typeof raw['output_tokens'] === 'number') next.output = raw['output_tokens'];
  return next;
}

function tokenUsage(usage: { input?: number; output?: number }): TokenUsage | undefined {
  if (usage.input === undefined && usage.output === undefined) return undefined;
  return { input: usage.input ?? 0, output: usage.output ?? 0 };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
