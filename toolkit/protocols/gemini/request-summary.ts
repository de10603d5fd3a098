import type { CanonicalRequest } from '../../canonical/canonical-request.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import { isObject } from '../json-fields.js';
import { lastOfAnswer, parametersBesides, toolDefinition, toolEntries } from '../request-summary-parts.js';
import type { RequestSummary, ToolDefinition } from '../wire-protocol.js';

/**
 * `tools: [{functionDeclarations: [{name, description, parameters | parametersJsonSchema}]}]`, other
 * entries (`googleSearch`, `codeExecution`) named by their key; the rest of the body but `contents`
 * and `systemInstruction` (the conversation) are parameters, the model asked in the URL among them.
 */
export function geminiRequestSummary(body: CanonicalRequest): RequestSummary {
  return {
    tools: toolEntries(body['tools']).flatMap((tool): ToolDefinition[] => {
      const declarations = tool['functionDeclarations'];
      if (!Array.isArray(declarations))
        return Object.keys(tool).map((key) => toolDefinition(key, undefined, tool[key]));
      return declarations
        .filter(isObject)
        .map((declaration) =>
          toolDefinition(
            declaration['name'],
            declaration['description'],
            declaration['parameters'] ?? declaration['parametersJsonSchema'],
          ),
        );
    }),
    parameters: parametersBesides(body, ['contents', 'systemInstruction', 'tools']),
  };
}

/** The first candidate's `finishReason`, from the body or the last streamed chunk that has one. */
export function geminiStopReason(response: RecordedResponse): string | undefined {
  return lastOfAnswer(response, (value) => {
    const candidates = value['candidates'];
    const first = Array.isArray(candidates) ? candidates[0] : undefined;
    const reason = isObject(first) ? first['finishReason'] : undefined;
    return typeof reason === 'string' ? reason : undefined;
  });
}
