import type { LlmMessage, LlmRequest, LlmToolSpec } from '../types.js';

export type WireMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly reasoning_content?: string;
      readonly tool_calls?: readonly WireToolCall[];
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

export interface WireToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface WireTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Record<string, unknown>;
  };
}

/**
 * The chat-completions body for one streamed call. Key order is fixed (recordings fingerprint
 * the body); `extraBody` keys come last and override same-named keys in place.
 */
export function buildRequestBody(
  request: LlmRequest,
  model: string,
  extraBody: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const messages: WireMessage[] = request.system === undefined ? [] : [{ role: 'system', content: request.system }];
  for (const message of request.messages) messages.push(toWireMessage(message));
  return {
    model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(request.tools !== undefined && request.tools.length > 0 ? { tools: request.tools.map(toWireTool) } : {}),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...extraBody,
  };
}

function toWireMessage(message: LlmMessage): WireMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      // Thinking models reject a later request whose tool-call turn lost its reasoning, and some
      // gateways reject a null content, so both are always sent as strings.
      return {
        role: 'assistant',
        content: message.content,
        ...(message.reasoning !== undefined && message.reasoning.length > 0
          ? { reasoning_content: message.reasoning }
          : {}),
        ...(message.toolCalls !== undefined && message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
  }
}

function toWireTool(tool: LlmToolSpec): WireTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
