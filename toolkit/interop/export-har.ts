import { LINEAGE_HEADER } from '../../harness/llm/types.js';
import { recorderName } from '../cassette/recorder-name.js';
import type { ExportPlan } from './export-target.js';
import { pollyRequestId } from './polly-identity.js';

interface HarHeader {
  readonly name: string;
  readonly value: string;
}

/** A HAR 1.2 log, with Polly.js's `_id`/`_order` on each entry so Polly's persisters serve it. */
export interface HarLog {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string; readonly comment: string };
    readonly entries: readonly HarEntryOut[];
  };
}

export interface HarEntryOut {
  readonly _id: string;
  readonly _order: number;
  /** nestcast's own note of which session and call the entry was. */
  readonly _nestcast: { readonly lineage: string; readonly call: number };
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: 'POST';
    readonly url: string;
    readonly httpVersion: 'HTTP/1.1';
    readonly cookies: readonly [];
    readonly headers: readonly HarHeader[];
    readonly queryString: readonly HarHeader[];
    readonly postData: { readonly mimeType: 'application/json'; readonly text: string };
    readonly headersSize: -1;
    readonly bodySize: number;
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: 'HTTP/1.1';
    readonly cookies: readonly [];
    readonly headers: readonly HarHeader[];
    readonly content: { readonly size: number; readonly mimeType: string; readonly text: string };
    readonly redirectURL: '';
    readonly headersSize: -1;
    readonly bodySize: number;
  };
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: 0; readonly wait: number; readonly receive: 0 };
}

/** What HAR cannot hold, said by the command and the docs. */
export const HAR_LIMITS =
  'HAR keeps each response body whole: SSE chunk boundaries and per-event timing are not kept (the total time is, in timings.wait).';

/** A HAR 1.2 log of the plan's calls; `startedDateTime` is the recording time (HAR requires one). */
export function toHar(plan: ExportPlan, recordedAt: string): HarLog {
  const seen = new Map<string, number>();
  const entries = plan.calls.map(({ lineage, call, url, wire }): HarEntryOut => {
    const id = pollyRequestId('POST', url.href, wire.requestBody);
    const order = seen.get(id) ?? 0;
    seen.set(id, order + 1);
    const bytes = Buffer.byteLength(wire.responseBody);
    return {
      _id: id,
      _order: order,
      _nestcast: { lineage, call },
      startedDateTime: recordedAt,
      time: wire.duration,
      request: {
        method: 'POST',
        url: url.href,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        // The session rides along as our harness sends it, so an import files each call where it was.
        headers: [
          { name: 'content-type', value: 'application/json' },
          { name: LINEAGE_HEADER, value: lineage },
        ],
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
        postData: { mimeType: 'application/json', text: wire.requestBody },
        headersSize: -1,
        bodySize: Buffer.byteLength(wire.requestBody),
      },
      response: {
        status: wire.status,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: Object.entries(wire.headers).map(([name, value]) => ({ name, value })),
        content: { size: bytes, mimeType: wire.headers['content-type'] ?? '', text: wire.responseBody },
        redirectURL: '',
        headersSize: -1,
        bodySize: bytes,
      },
      cache: {},
      timings: { send: 0, wait: wire.duration, receive: 0 },
    };
  });
  // Polly's persisters refuse a HAR whose creator is not Polly itself; the comment says who wrote it.
  return {
    log: {
      version: '1.2',
      creator: { name: 'Polly.JS', version: '6.0.6', comment: `written by ${recorderName()} (nestcast export)` },
      entries,
    },
  };
}
