import type { ExportPlan } from './export-target.js';

/** A definition `nock.define()` accepts. */
export interface NockDefinitionOut {
  readonly scope: string;
  readonly method: 'POST';
  readonly path: string;
  readonly status: number;
  readonly response: string;
  readonly rawHeaders: Readonly<Record<string, string>>;
  /** Ignored by nock: which session and call this was, and the request, so `nestcast import` gives them back. */
  readonly _nestcast: { readonly lineage: string; readonly call: number; readonly request: string };
}

/** What nock cannot hold, said by the command and the docs. */
export const NOCK_LIMITS =
  'nock replies with each body at once: SSE chunk boundaries and timing are not kept (the events are). ' +
  'Definitions match by method and path and are used in order, not by request body or session: calls of concurrent sessions may be served to the wrong one.';

/**
 * A nock fixture serving the plan's calls in order. No `body` is given: nock compares bodies
 * byte for byte or as exact JSON, and a client's transport fields (`stream_options`) are not
 * part of a canonical request. The request rides in `_nestcast`, which nock ignores.
 */
export function toNockDefinitions(plan: ExportPlan): NockDefinitionOut[] {
  return plan.calls.map(({ lineage, call, url, wire }) => ({
    scope: url.origin,
    method: 'POST',
    path: `${url.pathname}${url.search}`,
    status: wire.status,
    response: wire.responseBody,
    rawHeaders: wire.headers,
    _nestcast: { lineage, call, request: wire.requestBody },
  }));
}
