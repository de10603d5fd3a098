import type { CanonicalRequest } from '../../canonical/canonical-request.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import { isObject } from '../json-fields.js';
import { lastOfAnswer, parametersBesides, toolDefinition, toolEntries } from '../request-summary-parts.js';
import type { RequestSummary } from '../wire-protocol.js';

/**
 * `tools: [{name, description, input_schema}]` (server tools carry a `type` and no schema); the rest
 * of the body but `messages` and `system` (the conversation) are parameters.
 */
export function anthropicRequestSummary(body: CanonicalRequest): RequestSummary {
  return {
    tools: toolEntries(body['tools']).map((tool) =>
      'input_schema' in tool
        ? toolDefinition(tool['name'], tool['description'], tool['input_schema'])
        : toolDefinition(tool['name'] ?? tool['type'], tool['description'], tool),
    ),
    parameters: parametersBesides(body, ['messages', 'system', 'tools']),
  };
}

/** `stop_reason`: in the message, or in the stream's `message_delta`. */
export function anthropicStopReason(response: RecordedResponse): string | undefined {
  return lastOfAnswer(response, (value) => {
    const holder = isObject(value['delta']) ? value['delta'] : value;
    const reason = holder['stop_reason'];
    return typeof reason === 'string' ? reason : undefined;
  });
}
