import { canonicalJson, type Json } from '../canonical/canonical-json.js';
import type { Reply } from './types.js';

/**
 * What identifies a chat message across the calls of a session, whichever framework rebuilt it:
 * role, text (a string or the text parts joined; not beside tool calls), tool calls (id, name,
 * arguments as canonical JSON) and the answered call id. Frameworks reshape the rest freely (content `null` or `""`,
 * arguments re-serialised, extra fields), so it is left out.
 */
export function messageKey(message: Json): string {
  if (!isObject(message)) return canonicalJson(message);
  const role = typeof message['role'] === 'string' ? message['role'] : '';
  const calls = message['tool_calls'];
  const asks = Array.isArray(calls) && calls.length > 0;
  // Next to tool calls (ids unique per reply) some frameworks drop or move the text; it adds nothing to the identity.
  const key: Json[] = [role, asks ? '' : textOf(message['content'])];
  if (asks) key.push(calls.map(toolCallKey));
  const answered = message['tool_call_id'];
  if (typeof answered === 'string') key.push(answered);
  const other = otherParts(message['content']);
  if (other.length > 0) key.push(other);
  return JSON.stringify(key);
}

/** The key of the assistant message a reply becomes in the next request of its session. */
export function replyKey(reply: Reply): string {
  return messageKey({
    role: 'assistant',
    content: reply.text,
    tool_calls: reply.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
  });
}

/** A message's text: a string content, or its text parts joined. */
export function textOf(content: Json | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) if (isObject(part) && typeof part['text'] === 'string') text += part['text'];
  return text;
}

/**
 * Fixed-size digest, so a prefix key costs the same whatever the conversation's length. Two
 * 53-bit cyrb53 lanes (106 bits): a native sha1 costs microseconds of setup per call, which replay
 * pays for every message of every call; this costs about a nanosecond per character. The bits are
 * kept as eight 16-bit char codes, a key for maps only: `toString(36)` of a 53-bit number is
 * V8's slow radix path and cost several times the hashing.
 */
export function digest(text: string): string {
  return cyrb53(text, 0x9e3779b9) + cyrb53(text, 0x85ebca6b);
}

function cyrb53(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  // The 53 bits `4294967296 * (2097151 & h2) + (h1 >>> 0)` would hold.
  return String.fromCharCode(h1 & 0xffff, h1 >>> 16, h2 & 0xffff, (h2 >>> 16) & 0x1f);
}

function toolCallKey(call: Json): Json {
  if (!isObject(call)) return canonicalJson(call);
  const fn = isObject(call['function']) ? call['function'] : {};
  return [String(call['id'] ?? ''), String(fn['name'] ?? ''), argumentsKey(fn['arguments'])];
}

/** Arguments as canonical JSON when they parse (frameworks re-serialise them), else the text. */
export function argumentsKey(args: Json | undefined): string {
  if (typeof args !== 'string') return canonicalJson(args ?? null);
  try {
    return canonicalJson(JSON.parse(args));
  } catch {
    return args;
  }
}

function otherParts(content: Json | undefined): Json[] {
  if (!Array.isArray(content)) return [];
  return content.filter((part) => !(isObject(part) && part['type'] === 'text')).map((part) => canonicalJson(part));
}

export function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
