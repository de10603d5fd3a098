import type { Json } from '../canonical/canonical-json.js';
import type { CanonicalRequest } from '../canonical/canonical-request.js';

const PREVIEW_CHARS = 60;

/**
 * `deepseek-v4-flash · 3 messages · tools: read, task · last user: "Summarise the…"`. The encoder
 * passes the message count and the last message itself, so summarising never copies a long history.
 */
export function summarizeRequest(
  request: CanonicalRequest,
  messages: { readonly count: number; readonly last: unknown } | undefined = messagesOf(request),
): string {
  const parts: string[] = [typeof request['model'] === 'string' ? request['model'] : '(no model)'];
  if (messages) parts.push(`${messages.count} message${messages.count === 1 ? '' : 's'}`);
  const tools = toolNames(request['tools']);
  if (tools.length > 0) parts.push(`tools: ${tools.join(', ')}`);
  const last = messages?.last as Json | undefined;
  if (last !== null && typeof last === 'object' && !Array.isArray(last)) {
    parts.push(`last ${String(last['role'])}: ${JSON.stringify(preview(last['content']))}`);
  }
  return parts.join(' · ');
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((tool: { function?: { name?: unknown }; name?: unknown }) =>
    String(tool?.function?.name ?? tool?.name ?? '?'),
  );
}

function preview(content: unknown): string {
  const text =
    typeof content === 'string' ? content : content === null || content === undefined ? '' : JSON.stringify(content);
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat;
}

function messagesOf(request: CanonicalRequest): { count: number; last: unknown } | undefined {
  const messages = request['messages'];
  return Array.isArray(messages) ? { count: messages.length, last: messages.at(-1) } : undefined;
}
