import type { Readable, Writable } from 'node:stream';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { quoteHead } from './bounded-output.js';

/** The SDK's own default; a longer line is a fault, not a frame. */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;
/** How much of the first junk line is quoted. */
const JUNK_QUOTE_CHARS = 200;

/** What the child wrote to stdout that was not an ACP frame: counted, never answered, never kept. */
export interface JunkReport {
  readonly lines: number;
  readonly bytes: number;
  /** The first such line, quoted (cut to a few hundred characters). */
  readonly first: string | undefined;
}

/** A frame crossing the pipe, in the order it crossed. `in`: from the child. */
export type FrameDirection = 'in' | 'out';

export interface FrameStreamOptions {
  readonly maxFrameBytes?: number;
  /** Called once, for the first junk line (the provider logs it). */
  readonly onFirstJunk?: (quoted: string) => void;
  /** Sees every frame that crosses, both ways (the protocol recorder listens here). */
  readonly onFrame?: (direction: FrameDirection, message: AnyMessage) => void;
}

/** The child sent a line longer than the frame limit; the connection is closed with this. */
export class FrameTooLargeError extends Error {
  constructor(readonly maxFrameBytes: number) {
    super(`the ACP child sent a stdout line longer than ${maxFrameBytes} bytes (the frame limit) without a newline`);
  }
}

export interface FrameStream {
  readonly stream: Stream;
  junk(): JunkReport;
  /** Set once the child overflowed the frame limit. */
  overflow(): FrameTooLargeError | undefined;
}

/**
 * The ACP connection over a child's stdio. Unlike the SDK's `ndJsonStream`, reading stdout never
 * waits on a write to stdin: a line that is not a frame is counted and dropped, not answered, so a
 * child that floods stdout while not reading stdin cannot deadlock the run. Responses to requests
 * we never sent are junk too, so nothing reaches the SDK's own console logging.
 */
export function frameStream(stdin: Writable, stdout: Readable, options: FrameStreamOptions = {}): FrameStream {
  const maxFrameBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
  const sentRequests = new Set<string | number>();
  let junk = { lines: 0, bytes: 0, first: undefined as string | undefined };
  let overflow: FrameTooLargeError | undefined;

  const noteJunk = (line: string, bytes: number): void => {
    if (junk.first === undefined) {
      const first = quoteHead(line, JUNK_QUOTE_CHARS);
      junk = { ...junk, first };
      options.onFirstJunk?.(first);
    }
    junk = { ...junk, lines: junk.lines + 1, bytes: junk.bytes + bytes };
  };

  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let closed = false;
      const finish = (error?: Error): void => {
        if (closed) return;
        closed = true;
        if (error) controller.error(error);
        else controller.close();
      };
      const line = (bytes: Buffer): void => {
        const text = bytes.toString('utf8').trim();
        if (text === '') return;
        const message = asFrame(text, sentRequests);
        if (message === undefined) return noteJunk(text, bytes.length);
        options.onFrame?.('in', message);
        if (!closed) controller.enqueue(message);
      };
      stdout.on('data', (chunk: Buffer) => {
        if (closed) return;
        let start = 0;
        for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
          const piece = chunk.subarray(start, newline);
          if (pendingBytes + piece.length > maxFrameBytes) return tooLarge();
          line(pendingBytes === 0 ? piece : Buffer.concat([...pending, piece]));
          pending = [];
          pendingBytes = 0;
          start = newline + 1;
        }
        const rest = chunk.subarray(start);
        if (pendingBytes + rest.length > maxFrameBytes) return tooLarge();
        if (rest.length > 0) {
          // Copy: the stream may reuse its chunk buffers.
          pending.push(Buffer.from(rest));
          pendingBytes += rest.length;
        }
      });
      const tooLarge = (): void => {
        pending = [];
        pendingBytes = 0;
        overflow = new FrameTooLargeError(maxFrameBytes);
        finish(overflow);
      };
      stdout.on('end', () => {
        if (pendingBytes > 0) line(Buffer.concat(pending));
        finish();
      });
      stdout.on('error', (error) => finish(error));
    },
    cancel() {
      stdout.destroy();
    },
  });

  const writable = new WritableStream<AnyMessage>({
    write(message) {
      if ('method' in message && 'id' in message && message.id !== null && message.id !== undefined)
        sentRequests.add(message.id);
      options.onFrame?.('out', message);
      return writeLine(stdin, `${JSON.stringify(message)}\n`);
    },
  });

  return { stream: { readable, writable }, junk: () => junk, overflow: () => overflow };
}

/** The frame `text` holds, or undefined when it is not one we accept. */
function asFrame(text: string, sentRequests: Set<string | number>): AnyMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const message = value as Record<string, unknown>;
  if (typeof message['method'] === 'string') return message as AnyMessage;
  const id = message['id'];
  if (
    (typeof id === 'string' || typeof id === 'number') &&
    ('result' in message || 'error' in message) &&
    sentRequests.delete(id)
  ) {
    return message as AnyMessage;
  }
  return undefined;
}

/** Resolves once the line is handed to the pipe (or buffered below the high-water mark). */
function writeLine(stdin: Writable, line: string): Promise<void> {
  if (stdin.destroyed || stdin.writableEnded) return Promise.reject(new Error("the ACP child's stdin is closed"));
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onDone = (): void => {
      cleanup();
      resolve();
    };
    const onClose = (): void => {
      cleanup();
      reject(new Error("the ACP child's stdin closed before the frame was written"));
    };
    const cleanup = (): void => {
      stdin.off('error', onError);
      stdin.off('drain', onDone);
      stdin.off('close', onClose);
    };
    stdin.once('error', onError);
    stdin.once('close', onClose);
    if (stdin.write(line)) onDone();
    else stdin.once('drain', onDone);
  });
}
