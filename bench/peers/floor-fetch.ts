import { frameStream, SSE_HEADERS } from '../fixtures/stream-50.js';

/**
 * The physical floor: the recorded frames from memory, one chunk each, with no bookkeeping at
 * all (the request is not read, matched or counted). Nothing that serves the same chunks to the
 * same consumer can be faster.
 */
export const floorFetch: typeof fetch = async () => new Response(frameStream(), { status: 200, headers: SSE_HEADERS });
