import { canonicalJson } from '../canonical/canonical-json.js';
import { DEFAULT_PROTOCOL, protocolById } from '../protocols/registry.js';
import { encodeRequests } from './request-encoding.js';
import type { CallLine, CassetteCall } from './types.js';

/** The text of one lineage's calls file: one canonical JSON line per call, newline-terminated. */
export function lineageFileText(lineage: string, calls: readonly CassetteCall[]): string {
  const requests = encodeRequests(
    calls.map((call) => call.request),
    calls.map((call) => protocolById(call.protocol)?.historyField),
  );
  return calls
    .map((call, index): CallLine => ({
      lineage,
      call: index + 1,
      ...(call.protocol === undefined || call.protocol === DEFAULT_PROTOCOL ? {} : { protocol: call.protocol }),
      request: requests[index] ?? null,
      response: call.response,
    }))
    .map((line) => `${canonicalJson(line)}\n`)
    .join('');
}

/** Same file text with every `delay` zeroed: two recordings that differ only in timing compare equal. */
export function withoutTiming(fileText: string): string {
  return fileText
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => canonicalJson(JSON.parse(line, (key, value: unknown) => (key === 'delay' ? 0 : value))))
    .join('\n');
}
