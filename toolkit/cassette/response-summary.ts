import type { RecordedResponse, SseEvent } from './types.js';

/** What a recorded answer said, for a person: its text and the tools it called with their arguments. */
export interface ResponseSummary {
  readonly text: string;
  readonly toolCalls: readonly { readonly name: string; readonly args: string }[];
}

interface ChunkShape {
  choices?: {
    delta?: {
      content?: unknown;
      tool_calls?: { index?: unknown; function?: { name?: unknown; arguments?: unknown } }[];
    };
    message?: ChunkShape['message'];
  }[];
  message?: { content?: unknown; tool_calls?: { function?: { name?: unknown; arguments?: unknown } }[] };
}

/**
 * Rebuilds the answer of an OpenAI-compatible chat completion, streamed (content deltas, tool-call
 * fragments by index) or not. Anything it cannot read adds nothing: a summary never fails.
 */
export function summarizeResponse(response: RecordedResponse): ResponseSummary {
  if ('error' in response) return fromEvents('partial' in response.error ? (response.error.partial?.events ?? []) : []);
  if ('events' in response) return fromEvents(response.events);
  const body = parse(response.body);
  const message = body?.choices?.[0]?.message;
  const toolCalls = (message?.tool_calls ?? []).map((call) => ({
    name: String(call.function?.name ?? '?'),
    args: String(call.function?.arguments ?? ''),
  }));
  return { text: typeof message?.content === 'string' ? message.content : '', toolCalls };
}

function fromEvents(events: readonly SseEvent[]): ResponseSummary {
  let text = '';
  const calls = new Map<number, { name: string; args: string }>();
  for (const event of events) {
    if (!('data' in event)) continue;
    const delta = parse(event.data)?.choices?.[0]?.delta;
    if (typeof delta?.content === 'string') text += delta.content;
    for (const fragment of delta?.tool_calls ?? []) {
      const index = typeof fragment.index === 'number' ? fragment.index : calls.size;
      const call = calls.get(index) ?? { name: '', args: '' };
      if (typeof fragment.function?.name === 'string') call.name += fragment.function.name;
      if (typeof fragment.function?.arguments === 'string') call.args += fragment.function.arguments;
      calls.set(index, call);
    }
  }
  return {
    text,
    toolCalls: [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({ name: call.name || '?', args: call.args })),
  };
}

function parse(text: string): ChunkShape | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as ChunkShape) : undefined;
  } catch {
    return undefined;
  }
}
