import type { ServerResponse } from 'node:http';
import { wholeBodyOf } from '../replay/whole-body.js';

/**
 * Writes a fetch `Response` to a node:http response, streaming. A replayed answer whose every byte
 * is due at once (instant timing) goes out whole, in one write, as a server that has the whole
 * answer sends it, without its stream being read event by event. Otherwise the first chunk of each
 * turn of the event loop goes out at once, before anything else reads it (record mode's recorder
 * reads its copy of the same chunk after this write); chunks that follow it within the same turn
 * are joined and go out at the end of the turn as one write, instead of one packet per event for
 * the client to read one by one. The head leaves at the end of the first turn with or without a
 * chunk, as the real API sends it before the model's first token.
 */
export async function writeResponse(res: ServerResponse, response: Response, status = response.status): Promise<void> {
  res.writeHead(status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  const whole = wholeBodyOf(response);
  if (whole !== undefined) {
    res.end(whole);
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

/** Chunks written to `res` per turn of the event loop: the turn's first at once, the rest joined at its end. */
function turnBatch(res: ServerResponse): { add(chunk: Uint8Array): void; end(): void } {
  const pending: Uint8Array[] = [];
  let turnOpen = false;
  let wroteAny = false;
  const joined = (): Uint8Array | undefined => {
    const chunk = pending.length === 1 ? pending[0] : pending.length === 0 ? undefined : Buffer.concat(pending);
    pending.length = 0;
    return chunk;
  };
  /** Sent now: node:http would otherwise hold a write corked until the microtasks after it have run. */
  const writeNow = (chunk: Uint8Array): void => {
    res.cork();
    res.write(chunk);
    res.uncork();
    wroteAny = true;
  };
  const closeTurn = (): void => {
    turnOpen = false;
    if (res.writableEnded || res.destroyed) return;
    const chunk = joined();
    if (chunk !== undefined) writeNow(chunk);
    else if (!wroteAny) res.flushHeaders();
  };
  const openTurn = (): void => {
    turnOpen = true;
    setImmediate(closeTurn);
  };
  openTurn();
  return {
    add(chunk) {
      if (!turnOpen) {
        openTurn();
        writeNow(chunk);
      } else if (!wroteAny) writeNow(chunk);
      else pending.push(chunk);
    },
    end() {
      const chunk = joined();
      if (chunk === undefined) res.end();
      else res.end(chunk);
    },
  };
}
