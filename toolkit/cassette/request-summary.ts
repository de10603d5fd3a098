import type { CanonicalRequest } from '../canonical/canonical-request.js';

const PREVIEW_CHARS = 60;

/** `deepseek-v4-flash · 3 messages · tools: read, task · last user: "Summarise the…"` */
export function summarizeRequest(request: CanonicalRequest): string {
  const parts: string[] = [typeof request['model'] === 'string' ? request['model'] : '(no model)'];
  const messages = Array.isArray(request['messages']) ? request['messages'] : undefined;
  if (messages) parts.push(`${messages.length} message${messages.length === 1 ? '' : 's'}`);
  const tools = toolNames(request['tools']);
  if (tools.length > 0) parts.push(`tools: ${tools.join(', ')}`);
  const last = messages?.at(-1);
  if (last !== null && typeof last === 'object' && !Array.isArray(last)) {
    parts.push(`last ${String(last['role'])}: ${JSON.stringify(preview(last['content']))}`);
  }
  return parts.join(' · ');
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((tool: { function?: { name?: unknown }; name?: unknown }) => String(tool?.function?.name ?? tool?.name ?? '?'));
}

function preview(content: unknown): string {
  const text = typeof content === 'string' ? content : content == null ? '' : JSON.stringify(content);
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat;
}
