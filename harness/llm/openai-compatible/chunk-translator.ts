import { isRecord } from '../../is-record.js';
import type { Usage } from '../../session/types.js';
import { LlmError } from '../errors.js';
import type { LlmEvent, LlmFinishReason } from '../types.js';

const QUOTE_LIMIT = 200;

interface PendingToolCall {
  id?: string;
  name?: string;
  arguments: string;
}

/**
 * Turns the `data` of OpenAI chat-completion chunks into LlmEvents. Text and reasoning deltas
 * come back from `accept` as they arrive; tool calls are assembled per wire `index` and, with
 * the last usage seen and the finish, come back from `end` once the stream says `[DONE]`.
 */
export class ChunkTranslator {
  readonly #source: string;
  readonly #toolCalls = new Map<number, PendingToolCall>();
  #usage: Usage | undefined;
  #finishReason: string | undefined;
  #chunks = 0;

  /** `source` names the endpoint in error messages, e.g. `POST https://host/chat/completions`. */
  constructor(source: string) {
    this.#source = source;
  }

  accept(data: string): LlmEvent[] {
    this.#chunks++;
    const chunk = this.#parse(data);
    if (chunk.error !== undefined && chunk.error !== null) {
      throw new LlmError(
        'SERVER',
        `${this.#source} reported an error inside the stream at chunk ${this.#chunks}: ${quote(JSON.stringify(chunk.error))}; retry later`,
        { body: data },
      );
    }
    if (isRecord(chunk.usage)) this.#usage = toUsage(chunk.usage);

    const events: LlmEvent[] = [];
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isRecord(choice)) return events;
    if (typeof choice.finish_reason === 'string') this.#finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (!isRecord(delta)) return events;

    const reasoning = delta.reasoning_content;
    if (typeof reasoning === 'string' && reasoning.length > 0)
      events.push({ type: 'reasoning-delta', text: reasoning });
    const content = delta.content;
    if (typeof content === 'string' && content.length > 0) events.push({ type: 'text-delta', text: content });
    if (Array.isArray(delta.tool_calls)) this.#collectToolCalls(delta.tool_calls);
    return events;
  }

  /** A chunk named a `finish_reason`: the answer is complete even if the server never sends `[DONE]`. */
  get finished(): boolean {
    return this.#finishReason !== undefined;
  }

  /** Call at `[DONE]` (or a clean close after the finish): the assembled tool calls in index order, then usage, then finish. */
  end(): LlmEvent[] {
    const events: LlmEvent[] = [];
    for (const index of [...this.#toolCalls.keys()].sort((a, b) => a - b)) {
      const call = this.#toolCalls.get(index);
      if (call === undefined) continue;
      if (call.id === undefined || call.name === undefined) {
        const missing = call.id === undefined ? 'an id' : 'a function name';
        throw new LlmError(
          'PROTOCOL',
          `${this.#source} streamed a tool call at index ${index} without ${missing}; the server's tool-call fragments are malformed`,
        );
      }
      events.push({ type: 'tool-call', id: call.id, name: call.name, arguments: call.arguments });
    }
    if (this.#usage !== undefined) events.push({ type: 'usage', usage: this.#usage });
    events.push(toFinish(this.#finishReason));
    return events;
  }

  #parse(data: string): Record<string, unknown> {
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch (cause) {
      throw new LlmError(
        'PROTOCOL',
        `${this.#source} sent malformed JSON in SSE event ${this.#chunks}: ${quote(data)}; the server is not speaking the chat-completions stream format`,
        { cause, body: data },
      );
    }
    if (!isRecord(chunk)) {
      throw new LlmError(
        'PROTOCOL',
        `${this.#source} sent SSE event ${this.#chunks} that is not a JSON object: ${quote(data)}`,
        { body: data },
      );
    }
    return chunk;
  }

  #collectToolCalls(fragments: unknown[]): void {
    fragments.forEach((fragment, position) => {
      if (!isRecord(fragment)) return;
      const index = typeof fragment.index === 'number' ? fragment.index : position;
      let call = this.#toolCalls.get(index);
      if (call === undefined) {
        call = { arguments: '' };
        this.#toolCalls.set(index, call);
      }
      if (typeof fragment.id === 'string' && fragment.id.length > 0) call.id = fragment.id;
      const fn = fragment.function;
      if (!isRecord(fn)) return;
      if (typeof fn.name === 'string' && fn.name.length > 0) call.name = fn.name;
      if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
    });
  }
}

const FINISH_REASONS: Readonly<Record<string, LlmFinishReason>> = {
  stop: 'stop',
  tool_calls: 'tool-calls',
  length: 'max-tokens',
  content_filter: 'content-filter',
};

function toFinish(wire: string | undefined): LlmEvent {
  const reason = wire === undefined ? undefined : FINISH_REASONS[wire];
  if (reason !== undefined) return { type: 'finish', reason };
  return wire === undefined ? { type: 'finish', reason: 'other' } : { type: 'finish', reason: 'other', raw: wire };
}

function toUsage(wire: Record<string, unknown>): Usage {
  const promptDetails = isRecord(wire.prompt_tokens_details) ? wire.prompt_tokens_details : {};
  const completionDetails = isRecord(wire.completion_tokens_details) ? wire.completion_tokens_details : {};
  const cached = numberOr(promptDetails.cached_tokens) ?? numberOr(wire.prompt_cache_hit_tokens);
  const reasoning = numberOr(completionDetails.reasoning_tokens);
  return {
    inputTokens: numberOr(wire.prompt_tokens) ?? 0,
    outputTokens: numberOr(wire.completion_tokens) ?? 0,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function quote(text: string): string {
  return JSON.stringify(text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text);
}
