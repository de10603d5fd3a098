import type { AuthoredReply } from '../authored-reply.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import type { RenderContext } from '../wire-protocol.js';
import { replyChunks } from './chunk-stream.js';
import { completionFromStream } from './completion-from-stream.js';

/** An authored turn as a chat-completions stream (ending `[DONE]`), or as a `chat.completion` body. */
export function renderChat(turn: AuthoredReply, context: RenderContext): RecordedResponse {
  const chunks = replyChunks(turn, {
    id: `chatcmpl-${context.answerId}`,
    model: context.model,
    toolCallIds: context.toolCallIds,
  });
  const stream = {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    events: chunks.map((data) => ({ delay: context.eventDelay, data })),
    done: true,
  };
  return context.stream ? stream : completionFromStream(stream);
}
