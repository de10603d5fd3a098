import { canonicalJson, type Json } from '../canonical/canonical-json.js';

/**
 * Tool-call arguments as canonical JSON when they parse (frameworks re-serialise them with other
 * spacing and key order), else the text as sent. Arguments that arrive as an object are
 * canonicalised directly.
 */
export function canonicalArguments(args: Json | undefined): string {
  if (typeof args !== 'string') return canonicalJson(args ?? null);
  try {
    return canonicalJson(JSON.parse(args) as Json);
  } catch {
    return args;
  }
}
