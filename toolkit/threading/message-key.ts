import type { ConversationMessage } from '../protocols/wire-protocol.js';

/**
 * What identifies a message across the calls of a session, whichever framework rebuilt it: role,
 * text (not beside tool calls), tool calls (id, name, canonical arguments), the answered call ids
 * and the parts that are neither. Each protocol's `conversation` and `reply` read a message into
 * this neutral shape, so a reply and the same message sent back in the next request key alike.
 */
export function messageKey(message: ConversationMessage): string {
  const calls = message.toolCalls;
  const asks = calls !== undefined && calls.length > 0;
  // Next to tool calls (ids unique per reply) some frameworks drop or move the text; it adds nothing to the identity.
  const key: (string | string[][] | readonly string[])[] = [message.role, asks ? '' : message.text];
  if (asks) key.push(calls.map((call) => [call.id, call.name, call.arguments]));
  if (message.answers !== undefined && message.answers.length > 0) key.push(message.answers);
  if (message.other !== undefined && message.other.length > 0) key.push(message.other);
  return JSON.stringify(key);
}

/**
 * Fixed-size digest, so a prefix key costs the same whatever the conversation's length. Two
 * 53-bit cyrb53 lanes (106 bits): a native sha1 costs microseconds of setup per call, which replay
 * pays for every message of every call; this costs about a nanosecond per character. The bits are
 * kept as eight 16-bit char codes, a key for maps only: `toString(36)` of a 53-bit number is
 * V8's slow radix path and cost several times the hashing.
 */
export function digest(text: string): string {
  return cyrb53(text, '', 0x9e3779b9) + cyrb53(text, '', 0x85ebca6b);
}

/**
 * `digest(prefix + text)`, without building the joined string: a prefix key extended by the next
 * message's key, once per message of every threaded call.
 */
export function digestJoined(prefix: string, text: string): string {
  return cyrb53(prefix, text, 0x9e3779b9) + cyrb53(prefix, text, 0x85ebca6b);
}

/** cyrb53 of `first` followed by `second`. */
function cyrb53(first: string, second: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < first.length; i++) {
    const ch = first.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  for (let i = 0; i < second.length; i++) {
    const ch = second.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  // The 53 bits `4294967296 * (2097151 & h2) + (h1 >>> 0)` would hold.
  return String.fromCharCode(h1 & 0xffff, h1 >>> 16, h2 & 0xffff, (h2 >>> 16) & 0x1f);
}
