import { startLoopbackServer, type LoopbackServer } from '../../test/support/loopback-server.js';
import { FRAMES, SSE_HEADERS } from '../fixtures/stream-50.js';

/** A real HTTP server on 127.0.0.1 writing the same frames, one write each. */
export function liveSseServer(): Promise<LoopbackServer> {
  return startLoopbackServer((_request, res) => {
    res.writeHead(200, SSE_HEADERS);
    for (const frame of FRAMES) res.write(frame);
    res.end();
  });
}
