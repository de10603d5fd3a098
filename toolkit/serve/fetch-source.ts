import { LINEAGE_HEADER } from '../../harness/llm/types.js';
import { SERVED_ORIGIN, type CallSource, type RoundReport } from './call-source.js';
import { RequestLog } from './request-log.js';
import { ServeError } from './serve-error.js';

/** Headers that describe one hop, not the call: the fetch sets its own. */
const HOP_HEADERS = ['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'accept-encoding'];
/** fetch has already decoded the body it hands on, so these no longer describe it. */
const DECODED_HEADERS = ['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'];

/**
 * Through mode: every call is handed to `fetch` (a program scenario's replaying or recording fetch),
 * so a process's calls join the same recording, cursors and derived sessions as the calls made in
 * process. What was served, consumed and wrong is that fetch's owner's to report: this source
 * reports nothing of its own.
 */
export function fetchSource(fetch: typeof globalThis.fetch): CallSource {
  const received = new RequestLog();
  const empty = (): RoundReport => ({ sessions: [], problems: [] });
  return {
    async answer(call) {
      const headers = new Headers(call.headers);
      for (const name of HOP_HEADERS) headers.delete(name);
      if (call.lineage !== undefined) headers.set(LINEAGE_HEADER, call.lineage);
      const filed = call.lineage ?? '(derived)';
      received.add(filed, call.body);
      const response = await fetch(`${SERVED_ORIGIN}${call.path}`, {
        method: call.method,
        headers,
        body: call.body,
        signal: call.signal,
      });
      const passed = new Headers(response.headers);
      for (const name of DECODED_HEADERS) passed.delete(name);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers: passed });
    },
    requests: (lineage) => received.requests(lineage),
    report: empty,
    reset() {
      throw new ServeError(
        'SERVE_MODE_MISMATCH',
        'An endpoint that serves through a scenario run cannot be reset: the run owns its cursors.',
      );
    },
    finish: () => Promise.resolve(empty()),
  };
}
