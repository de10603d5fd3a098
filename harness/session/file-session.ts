import { closeSync } from 'node:fs';
import { HarnessError } from '../errors.js';
import { isRecord } from '../is-record.js';
import { eventShapeProblem } from './event-shape.js';
import { frozenJsonCopy } from './frozen-json-copy.js';
import { serializeSessionLine } from './jsonl.js';
import { writeAllSync } from './write-all-sync.js';
import type { Session } from './store-types.js';
import type { NewSessionEvent, SessionEvent, SessionHeader } from './types.js';

type AppendListener = (event: SessionEvent) => void;

export interface FileSessionInit {
  readonly header: SessionHeader;
  /** Already frozen, seq contiguous from 0. */
  readonly events: readonly SessionEvent[];
  readonly path: string;
  /** Open for appending; the session owns it from now on. */
  readonly fd: number;
  readonly onClose: (session: FileSession) => void;
  /** Sees each line before it is written and may refuse it by throwing; nothing is written then. */
  readonly beforeWrite?: (path: string, text: string) => void;
}

/** A `Session` that appends each event to its JSONL file with a synchronous write on an fd it keeps open. */
export class FileSession implements Session {
  readonly id: string;
  readonly header: SessionHeader;
  readonly path: string;
  private readonly log: SessionEvent[];
  private readonly listeners = new Set<AppendListener>();
  private readonly undelivered: SessionEvent[] = [];
  private delivering = false;
  private fd: number | null;
  private readonly onClose: (session: FileSession) => void;
  private readonly beforeWrite: ((path: string, text: string) => void) | undefined;

  constructor(init: FileSessionInit) {
    this.header = init.header;
    this.id = init.header.id;
    this.path = init.path;
    this.log = [...init.events];
    this.fd = init.fd;
    this.onClose = init.onClose;
    this.beforeWrite = init.beforeWrite;
  }

  get events(): readonly SessionEvent[] {
    return this.log;
  }

  get closed(): boolean {
    return this.fd === null;
  }

  append(event: NewSessionEvent): SessionEvent {
    const where = `session ${this.header.lineage} (${this.path})`;
    if (this.fd === null) {
      throw new HarnessError(
        'SESSION_CLOSED',
        `Cannot append ${String(event?.type)} to ${where}: the session is closed. Resume it (sessions.resume) to continue its log.`,
      );
    }
    const problem = isRecord(event)
      ? eventShapeProblem(event.type, event.data)
      : 'the event must be an object {type, data}';
    if (problem !== null) throw new HarnessError('INVALID_EVENT', `Cannot append to ${where}: ${problem}.`);
    const previous = this.log.at(-1);
    const stored = Object.freeze({
      seq: this.log.length,
      // A clock stepped backwards must not make the log's time decrease.
      time: Math.max(Date.now(), previous?.time ?? 0),
      type: event.type,
      data: frozenJsonCopy(event.data, `Cannot append ${event.type} to ${where}`, 'data'),
    }) as SessionEvent;
    const line = `${serializeSessionLine(stored)}\n`;
    this.beforeWrite?.(this.path, line);
    this.write(line, where);
    this.log.push(stored);
    this.deliver(stored);
    return stored;
  }

  onAppend(listener: AppendListener): () => void {
    // A fresh wrapper per subscription, so subscribing one function twice unsubscribes independently.
    const subscription: AppendListener = (event) => listener(event);
    this.listeners.add(subscription);
    return () => {
      this.listeners.delete(subscription);
    };
  }

  async close(): Promise<void> {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    this.onClose(this);
    closeSync(fd);
  }

  private write(line: string, where: string): void {
    const bytes = Buffer.from(line, 'utf8');
    try {
      writeAllSync(this.fd as number, bytes);
    } catch (error) {
      // A partial line may be on disk now; closing keeps any later event from landing after it,
      // and resume recovers the file by dropping the cut-off line.
      void this.close();
      throw new HarnessError(
        'SESSION_CLOSED',
        `Writing to ${where} failed, so the session was closed: ${(error as Error).message}. Fix the cause, then resume the session.`,
        { cause: error },
      );
    }
  }

  /** Listeners see events in seq order even when one of them appends (its event is queued behind). */
  private deliver(event: SessionEvent): void {
    this.undelivered.push(event);
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.undelivered.shift(); next !== undefined; next = this.undelivered.shift()) {
        for (const listener of [...this.listeners]) this.notify(listener, next);
      }
    } finally {
      this.delivering = false;
    }
  }

  private notify(listener: AppendListener, event: SessionEvent): void {
    const report = (error: unknown): void => {
      console.error(
        `nestcast: an onAppend listener of session ${this.header.lineage} failed on seq ${event.seq} (${event.type}); ` +
          'the event is stored and other listeners still ran.',
        error,
      );
    };
    try {
      const result: unknown = listener(event);
      if (result instanceof Promise) result.catch(report);
    } catch (error) {
      report(error);
    }
  }
}
