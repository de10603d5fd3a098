import type { AuthoredToolCall } from './authored-reply.js';
import { CassetteError } from '../errors/cassette-error.js';

/**
 * An authored call's arguments as the object an API carries them as (Anthropic's `input`, Gemini's
 * `args`): exact argument text must parse to an object, or the script cannot be said in that API.
 */
export function objectArguments(call: AuthoredToolCall, api: string): Readonly<Record<string, unknown>> {
  if (typeof call.args !== 'string') return call.args;
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.args);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new CassetteError(
      'SCRIPT_INVALID',
      `The authored tool call "${call.name}" has argument text ${JSON.stringify(call.args)}, but ${api} carries tool arguments as a JSON object: write args as an object, or as text that parses to one.`,
    );
  return parsed as Record<string, unknown>;
}
