import type { RecordedResponse } from '../cassette/types.js';

/** The ids of the tool calls a recorded reply asked for, in the order they first appear. */
export function toolCallIdsOf(response: RecordedResponse): string[] {
  const ids: string[] = [];
  const add = (calls: unknown): void => {
    if (!Array.isArray(calls)) return;
    for (const call of calls) {
      const id = (call as { id?: unknown } | null)?.id;
      if (typeof id === 'string' && id !== '' && !ids.includes(id)) ids.push(id);
    }
  };
  if ('events' in response) {
    for (const event of response.events) {
      if (!('data' in event)) continue;
      for (const choice of choicesOf(event.data)) add((choice as { delta?: { tool_calls?: unknown } }).delta?.tool_calls);
    }
  } else if ('body' in response) {
    for (const choice of choicesOf(response.body)) add((choice as { message?: { tool_calls?: unknown } }).message?.tool_calls);
  }
  return ids;
}

function choicesOf(text: string): unknown[] {
  try {
    const parsed = JSON.parse(text) as { choices?: unknown } | null;
    return Array.isArray(parsed?.choices) ? parsed.choices : [];
  } catch {
    return [];
  }
}
