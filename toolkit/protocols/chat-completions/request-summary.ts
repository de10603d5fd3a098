import type { CanonicalRequest } from '../../canonical/canonical-request.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import { isObject } from '../json-fields.js';
import { lastOfAnswer, parametersBesides, toolDefinition, toolEntries } from '../request-summary-parts.js';
import type { RequestSummary } from '../wire-protocol.js';

/** `tools: [{type: 'function', function: {name, description, parameters}}]`; the rest of the body but `messages` are parameters. */
export function chatRequestSummary(body: CanonicalRequest): RequestSummary {
  return {
    tools: toolEntries(body['tools']).map((tool) => {
      const fn = tool['function'];
      return isObject(fn)
        ? toolDefinition(fn['name'], fn['description'], fn['parameters'])
        : toolDefinition(tool['type'], undefined, tool);
    }),
    parameters: parametersBesides(body, ['messages', 'tools']),
  };
}

/** The first choice's `finish_reason`: in the completion, or in the stream's last chunk that has one. */
export function chatStopReason(response: RecordedResponse): string | undefined {
  return lastOfAnswer(response, (value) => {
    const choices = value['choices'];
    const first = Array.isArray(choices) ? choices[0] : undefined;
    const reason = isObject(first) ? first['finish_reason'] : undefined;
    return typeof reason === 'string' ? reason : undefined;
  });
}
