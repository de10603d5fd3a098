import type { Json } from '../canonical/canonical-json.js';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import type { RecordedResponse, SseEvent } from '../exchange/recorded-response.js';
import { isObject, parseJson } from './json-fields.js';
import type { ToolDefinition } from './wire-protocol.js';

/** The top-level fields of a request but those its conversation and tools are read from: its parameters, as sent. */
export function parametersBesides(body: CanonicalRequest, read: readonly string[]): Record<string, Json> {
  return Object.fromEntries(Object.entries(body).filter(([field]) => !read.includes(field)));
}

/** A tool as the report shows it; a field of the wrong type is shown as absent, the whole entry kept in `parameters` when it has no name. */
export function toolDefinition(
  name: Json | undefined,
  description: Json | undefined,
  parameters: Json | undefined,
): ToolDefinition {
  return {
    name: typeof name === 'string' ? name : '(unnamed)',
    description: typeof description === 'string' ? description : null,
    parameters: parameters ?? null,
  };
}

/** The entries of a request's tool array (none when it has none or it is not an array). */
export function toolEntries(tools: Json | undefined): { [key: string]: Json }[] {
  return Array.isArray(tools) ? tools.filter(isObject) : [];
}

/**
 * The last value `pick` finds in a recorded answer: in its JSON body, or in each of its streamed
 * events in turn (a stream states its stop reason in a late event). `undefined` for a failure.
 */
export function lastOfAnswer(
  response: RecordedResponse,
  pick: (value: { [key: string]: Json }, event?: SseEvent) => string | undefined,
): string | undefined {
  if ('error' in response) return undefined;
  if ('body' in response) {
    const parsed = parseJson(response.body);
    const bodies = Array.isArray(parsed) ? parsed : [parsed];
    return lastPicked(bodies.filter((body) => isObject(body)).map((body) => () => pick(body)));
  }
  return lastPicked(
    response.events.map((event) => () => {
      if (!('data' in event)) return undefined;
      const value = parseJson(event.data);
      return isObject(value) ? pick(value, event) : undefined;
    }),
  );
}

function lastPicked(reads: readonly (() => string | undefined)[]): string | undefined {
  let found: string | undefined;
  for (const read of reads) found = read() ?? found;
  return found;
}
