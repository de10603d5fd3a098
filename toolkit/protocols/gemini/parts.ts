import { isRecord } from '../../../harness/is-record.js';
import { canonicalJson } from '../../canonical/canonical-json.js';
import type { NeutralToolCall } from '../wire-protocol.js';
import { derivedCallId } from './call-ids.js';
import { applyPartialArgs } from './partial-args.js';

/** What a model turn's parts say: text joined (thoughts left out), function calls with ids, the rest. */
export interface ReadParts {
  text: string;
  toolCalls: NeutralToolCall[];
  /** Each `functionResponse` part: the call name, its own id if it carries one, the response as canonical JSON. */
  responses: { name: string; id?: string; response: string }[];
  other: string[];
  /** A function call whose arguments are still streaming (Vertex `partialArgs`, `willContinue`). */
  streaming?: { name: string; id?: string; args: Record<string, unknown> };
}

export function emptyParts(): ReadParts {
  return { text: '', toolCalls: [], responses: [], other: [] };
}

/** Ends a turn: a call whose streamed arguments never said they were complete is taken as it stands. */
export function endParts(into: ReadParts): ReadParts {
  const call = into.streaming;
  if (call) {
    delete into.streaming;
    addCall(into, call.name, call.id, call.args);
  }
  return into;
}

/** Adds `parts` to `into`: a turn may arrive as several contents (one per streamed chunk). */
export function readParts(parts: unknown, into: ReadParts): ReadParts {
  if (!Array.isArray(parts)) return into;
  for (const part of parts) {
    if (!isRecord(part)) into.other.push(canonicalJson(part));
    else if (typeof part['text'] === 'string') {
      if (part['thought'] !== true) into.text += part['text'];
    } else if (isRecord(part['functionCall'])) {
      readCall(part['functionCall'], into);
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

/**
 * A whole `functionCall`, or one piece of a call whose arguments Vertex streams: the first piece
 * names it, each adds `partialArgs`, and the first without `willContinue: true` completes it (the
 * last may be an empty `functionCall`).
 */
function readCall(call: Readonly<Record<string, unknown>>, into: ReadParts): void {
  const partial = call['partialArgs'];
  const id = typeof call['id'] === 'string' && call['id'] !== '' ? call['id'] : undefined;
  if (into.streaming === undefined && !Array.isArray(partial) && call['willContinue'] !== true) {
    addCall(into, String(call['name'] ?? ''), id, call['args']);
    return;
  }
  const streaming = (into.streaming ??= { name: '', args: {} });
  if (typeof call['name'] === 'string' && call['name'] !== '') streaming.name = call['name'];
  if (id !== undefined) streaming.id = id;
  if (isRecord(call['args'])) Object.assign(streaming.args, call['args']);
  if (Array.isArray(partial)) applyPartialArgs(streaming.args, partial);
  if (call['willContinue'] !== true) endParts(into);
}

function addCall(into: ReadParts, name: string, id: string | undefined, args: unknown): void {
  into.toolCalls.push({
    id: id ?? derivedCallId(name, args, into.toolCalls.length),
    name,
    arguments: canonicalJson(args ?? {}),
  });
}

/** Gemini 3 may send a part that holds only a `thoughtSignature`: no content of its own. */
function isThoughtSignatureOnly(part: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(part).every((key) => key === 'thoughtSignature' || key === 'thought');
}
