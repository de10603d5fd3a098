import type { StreamPhase } from '../wire-protocol.js';

/** What each `response.*` event carried, by its name: reasoning, words, or function-call arguments. */
const KINDS: Readonly<Record<string, StreamPhase>> = {
  'response.reasoning_summary_text.delta': 'reasoning',
  'response.reasoning_text.delta': 'reasoning',
  'response.output_text.delta': 'text',
  'response.refusal.delta': 'text',
  'response.function_call_arguments.delta': 'tool-call',
};

/** An event's kind from its `event:` name, else from the `type` its data names (a proxy may drop the names). */
export function responsesEventKind(event: { readonly data: string; readonly event?: string }): StreamPhase | undefined {
  if (event.event !== undefined) return KINDS[event.event];
  const type = /^\{"type":"([^"]+)"/.exec(event.data)?.[1];
  return type === undefined ? undefined : KINDS[type];
}
