import type { CanonicalRequest } from '../../canonical/canonical-request.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import { isObject } from '../json-fields.js';
import { lastOfAnswer, parametersBesides, toolDefinition, toolEntries } from '../request-summary-parts.js';
import type { RequestSummary } from '../wire-protocol.js';

/**
 * `tools: [{type: 'function', name, description, parameters}]` or built-in tools (`{type:
 * 'web_search'}`, named by their type); the rest of the body but `input` and `instructions` (the
 * conversation) are parameters.
 */
export function responsesRequestSummary(body: CanonicalRequest): RequestSummary {
  return {
    tools: toolEntries(body['tools']).map((tool) =>
      tool['type'] === 'function'
        ? toolDefinition(tool['name'], tool['description'], tool['parameters'])
        : toolDefinition(tool['type'], undefined, tool),
    ),
    parameters: parametersBesides(body, ['input', 'instructions', 'tools']),
  };
}

/**
 * The response's `status`, and why it is incomplete when it is (`incomplete: max_output_tokens`):
 * in the body, or in the stream's `response.completed` / `response.incomplete` event.
 */
export function responsesStopReason(response: RecordedResponse): string | undefined {
  return lastOfAnswer(response, (value) => {
    const answer = isObject(value['response']) ? value['response'] : value;
    const status = answer['status'];
    if (typeof status !== 'string' || status === 'in_progress') return undefined;
    const details = answer['incomplete_details'];
    const why = isObject(details) && typeof details['reason'] === 'string' ? `: ${details['reason']}` : '';
    return `${status}${why}`;
  });
}
