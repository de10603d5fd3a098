import type { CassetteCall, SseEvent } from './types.js';

/** A value that must never be written; `label` names it in messages, e.g. `the authorization header`. */
export type Secret = string | { readonly value: string; readonly label: string };

/** Where a secret's value was found. Never carries the value itself. */
export interface SecretHit {
  /** `secret #2` or the secret's label. */
  readonly secret: string;
  /** `session "main", call 2` or a file name. */
  readonly where: string;
  readonly how: 'verbatim' | 'split across SSE events';
}

export interface ScanTarget {
  readonly where: string;
  readonly text: string;
  readonly calls?: readonly CassetteCall[];
  readonly lineage?: string;
}

/**
 * Looks for every secret in everything about to be written: each file's text (raw and
 * JSON-escaped), and each call's stream reassembled the way a client would, so a key the model
 * echoed back in two deltas is found too.
 */
export function findSecret(targets: readonly ScanTarget[], secrets: readonly Secret[]): SecretHit | undefined {
  const needles = secrets
    .map((secret, i) => (typeof secret === 'string' ? { secret, number: `secret #${i + 1}` } : { secret: secret.value, number: secret.label }))
    .filter(({ secret }) => secret !== '');
  for (const target of targets) {
    for (const { secret, number } of needles) {
      if (target.text.includes(secret) || target.text.includes(JSON.stringify(secret).slice(1, -1))) {
        return { secret: number, where: target.where, how: 'verbatim' };
      }
    }
    for (const [index, call] of (target.calls ?? []).entries()) {
      const joined = reassembledTexts(eventsOf(call));
      for (const { secret, number } of needles) {
        if (joined.some((text) => text.includes(secret))) {
          return { secret: number, where: `session "${target.lineage ?? '?'}", call ${index + 1}`, how: 'split across SSE events' };
        }
      }
    }
  }
  return undefined;
}

function eventsOf(call: CassetteCall): readonly SseEvent[] {
  const response = call.response;
  if ('events' in response) return response.events;
  if ('error' in response && response.error.kind !== 'http') return response.error.partial?.events ?? [];
  return [];
}

/** The events' raw texts joined, and every JSON string field joined across events by its path. */
function reassembledTexts(events: readonly SseEvent[]): string[] {
  const raw = events.map((event) => ('data' in event ? event.data : event.comment)).join('');
  const byPath = new Map<string, string>();
  for (const event of events) {
    if (!('data' in event)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(event.data);
    } catch {
      continue;
    }
    collectStrings(parsed, '', byPath);
  }
  return [raw, ...byPath.values()];
}

function collectStrings(value: unknown, path: string, into: Map<string, string>): void {
  if (typeof value === 'string') into.set(path, (into.get(path) ?? '') + value);
  else if (Array.isArray(value)) value.forEach((item, i) => collectStrings(item, `${path}[${i}]`, into));
  else if (value !== null && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) collectStrings(field, `${path}.${key}`, into);
  }
}
