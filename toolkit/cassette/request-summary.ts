import type { Json } from '../canonical/canonical-json.js';
import type { CanonicalRequest } from '../canonical/canonical-request.js';

const PREVIEW_CHARS = 60;

/**
 * `deepseek-v4-flash · 3 messages · tools: read, task · last user: "Summarise the…"`. The caller
 * passes the length of the request's history (its protocol's `historyField`) and its last item
 * (`historySummary`), so summarising never copies a long history.
 */
export function summarizeRequest(
  request: CanonicalRequest,
  messages: { readonly count: number; readonly last: unknown } | undefined,
): string {
  const parts: string[] = [typeof request['model'] === 'string' ? request['model'] : '(no model)'];
  if (messages) parts.push(`${messages.count} message${messages.count === 1 ? '' : 's'}`);
  const tools = toolNames(request['tools']);
  if (tools.length > 0) parts.push(`tools: ${tools.join(', ')}`);
  const last = messages?.last as Json | undefined;
  if (last !== null && typeof last === 'object' && !Array.isArray(last)) {
    // History items that are not messages (a tool call, a tool result) say their type instead of a role.
    const kind = last['role'] ?? last['type'];
    parts.push(`last ${String(kind)}: ${JSON.stringify(preview(last['content'] ?? last['output']))}`);
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

/** The length and last item of a request's history field (its protocol's `historyField`); `undefined` when it has none. */
export function historySummary(
  request: CanonicalRequest,
  historyField: string | undefined,
): { count: number; last: unknown } | undefined {
  const history = historyField === undefined ? undefined : request[historyField];
  return Array.isArray(history) ? { count: history.length, last: history.at(-1) } : undefined;
}
