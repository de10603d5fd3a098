import { isRecord } from '../../../harness/is-record.js';
import { canonicalJson } from '../../canonical/canonical-json.js';
import type { NeutralToolCall } from '../wire-protocol.js';
import { derivedCallId } from './call-ids.js';

/** What a model turn's parts say: text joined (thoughts left out), function calls with ids, the rest. */
export interface ReadParts {
  text: string;
  toolCalls: NeutralToolCall[];
  /** Each `functionResponse` part: the call name, its own id if it carries one, the response as canonical JSON. */
  responses: { name: string; id?: string; response: string }[];
  other: string[];
}

export function emptyParts(): ReadParts {
  return { text: '', toolCalls: [], responses: [], other: [] };
}

/** Adds `parts` to `into`: a turn may arrive as several contents (one per streamed chunk). */
export function readParts(parts: unknown, into: ReadParts): ReadParts {
  if (!Array.isArray(parts)) return into;
  for (const part of parts) {
    if (!isRecord(part)) into.other.push(canonicalJson(part));
    else if (typeof part['text'] === 'string') {
      if (part['thought'] !== true) into.text += part['text'];
    } else if (isRecord(part['functionCall'])) {
      const call = part['functionCall'];
      const name = String(call['name'] ?? '');
      const id =
        typeof call['id'] === 'string' && call['id'] !== ''
          ? call['id']
          : derivedCallId(name, call['args'], into.toolCalls.length);
      into.toolCalls.push({ id, name, arguments: canonicalJson(call['args'] ?? {}) });
    } else if (isRecord(part['functionResponse'])) {
      const response = part['functionResponse'];
      const id = typeof response['id'] === 'string' && response['id'] !== '' ? response['id'] : undefined;
      into.responses.push({
        name: String(response['name'] ?? ''),
        ...(id === undefined ? {} : { id }),
        response: canonicalJson(response['response'] ?? null),
      });
    } else if (!isThoughtSignatureOnly(part)) into.other.push(canonicalJson(part));
  }
  return into;
}

/** Gemini 3 may send a part that holds only a `thoughtSignature`: no content of its own. */
function isThoughtSignatureOnly(part: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(part).every((key) => key === 'thoughtSignature' || key === 'thought');
}
