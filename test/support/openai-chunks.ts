/** Builders for OpenAI chat-completion stream chunks, for tests that script a loopback model by hand. */

const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4-flash' } as const;

export function textChunk(content: string, finishReason: string | null = null): object {
  return { ...base, choices: [{ index: 0, delta: { content }, finish_reason: finishReason }] };
}

export function finishChunk(finishReason: string): object {
  return { ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] };
}

export function toolCallChunk(index: number, call: { id?: string; name?: string; args?: string }): object {
  return {
    ...base,
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [
            {
              index,
              ...(call.id !== undefined ? { id: call.id, type: 'function' } : {}),
              function: { ...(call.name !== undefined ? { name: call.name } : {}), arguments: call.args ?? '' },
            },
          ],
        },
        finish_reason: null,
      },
    ],
  };
}

export function usageChunk(promptTokens: number, completionTokens: number): object {
  return {
    ...base,
    choices: [],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}
