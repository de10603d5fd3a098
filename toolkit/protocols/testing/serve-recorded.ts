import type { ServerResponse } from 'node:http';
import { formatSseEvent } from '../../exchange/sse-format.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import type { WireErrorResponse } from '../wire-protocol.js';

/** Writes a rendered answer or an error response to a real HTTP response, as replay would. */
export function serveRecorded(response: RecordedResponse | WireErrorResponse, to: ServerResponse): void {
  if ('error' in response) throw new Error('serveRecorded serves answers, not recorded failures');
  to.writeHead(response.status, response.headers);
  if ('events' in response) {
    for (const event of response.events) to.write(formatSseEvent(event));
    to.end();
  } else to.end(typeof response.body === 'string' ? response.body : JSON.stringify(response.body));
}
