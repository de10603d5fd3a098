import type { Json } from '../canonical/canonical-json.js';

/** A JSON object (not an array, not null): what protocols read their fields from. */
export function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parsed JSON, or `undefined` when the text is not JSON: a recorded answer is read, never trusted. */
export function parseJson(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** The text of a string or of the `text` fields of an array of parts, joined. */
export function textOfParts(content: Json | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) if (isObject(part) && typeof part['text'] === 'string') text += part['text'];
  return text;
}
