import type { ServerResponse } from 'node:http';

/**
 * Writes a fetch `Response` to a node:http response, streaming: each chunk goes out at the end of
 * the turn of the event loop it arrived in, with whatever else arrived in that turn, as one write.
 * A replayed answer (the replaying fetch hands over every chunk without waiting) then leaves with
 * its head in one write, as a server writing a whole answer at once sends it, instead of one packet
 * per event for the client to read one by one. A recorded upstream's chunk arrives on a turn of its
 * own and leaves at the end of that turn, before the next one is awaited. The head leaves at the end
 * of the first turn, chunk or not, as the real API sends it before the model's first token.
 */
export async function writeResponse(res: ServerResponse, response: Response, status = response.status): Promise<void> {
  res.writeHead(status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  const batch = turnBatch(res);
  const reader = response.body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) batch.add(read.value);
    batch.end();
  } catch {
    res.socket?.destroy();
  }
}

/**
 * Chunks written to `res` at the end of the current turn (`setImmediate`), joined: one write and,
 * chunked, one chunk frame per turn. The first turn's release sends the head even with no chunk.
 */
function turnBatch(res: ServerResponse): { add(chunk: Uint8Array): void; end(): void } {
  const pending: Uint8Array[] = [];
  let scheduled = false;
  const joined = (): Uint8Array | undefined => {
    const chunk = pending.length === 1 ? pending[0] : pending.length === 0 ? undefined : Buffer.concat(pending);
    pending.length = 0;
    return chunk;
  };
  const release = (): void => {
    scheduled = false;
    if (res.writableEnded || res.destroyed) return;
    const chunk = joined();
    if (chunk === undefined) res.flushHeaders();
    else res.write(chunk);
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(release);
  };
  schedule();
  return {
    add(chunk) {
      pending.push(chunk);
      schedule();
    },
    end() {
      const chunk = joined();
      if (chunk === undefined) res.end();
      else res.end(chunk);
    },
  };
}
