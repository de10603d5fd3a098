import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { LlmEvent } from '../llm/types.js';
import type { SessionEvent } from '../session/types.js';

/** The chunk a streamed model event becomes: words to `agent_message_chunk`, thinking to `agent_thought_chunk`. */
export function updateForModelEvent(event: LlmEvent): SessionUpdate | undefined {
  if (event.type === 'text-delta' && event.text !== '')
    return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } };
  if (event.type === 'reasoning-delta' && event.text !== '')
    return { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } };
  return undefined;
}

/** Tool use, read from the session log: a `tool/call` opens an ACP tool call, its `tool/result` closes it. */
export function updateForSessionEvent(event: SessionEvent): SessionUpdate | undefined {
  if (event.type === 'tool/call') {
    return {
      sessionUpdate: 'tool_call',
      toolCallId: event.data.id,
      title: event.data.name,
      name: event.data.name,
      kind: 'other',
      status: 'in_progress',
      rawInput: event.data.args,
    };
  }
  if (event.type === 'tool/result') {
    return {
      sessionUpdate: 'tool_call_update',
      toolCallId: event.data.id,
      status: event.data.isError ? 'failed' : 'completed',
      content: [{ type: 'content', content: { type: 'text', text: event.data.output } }],
      rawOutput: event.data.output,
    };
  }
  return undefined;
}
