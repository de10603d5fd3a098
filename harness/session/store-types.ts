import type { NewSessionEvent, SessionEvent, SessionHeader, SessionLog } from './types.js';

/** A live, append-only session backed by one JSONL file. */
export interface Session extends SessionLog {
  readonly id: string;
  readonly header: SessionHeader;
  /** Every event so far, seed included; `events[i].seq === i`. */
  readonly events: readonly SessionEvent[];
  /** Absolute path of the JSONL file. */
  readonly path: string;
  /** Stamps `seq` and `time`, appends in memory and to the file, and returns the stored event. */
  append(event: NewSessionEvent): SessionEvent;
  /** Observe appends (used by waits and harvest); returns an unsubscribe function. */
  onAppend(listener: (event: SessionEvent) => void): () => void;
  /** Releases the file. Appending afterwards throws `SESSION_CLOSED`. Idempotent. */
  close(): Promise<void>;
  readonly closed: boolean;
}

export interface CreateSessionOptions {
  /** Default: a random UUID. */
  readonly id?: string;
  /** Default: `main`. */
  readonly lineage?: string;
  /** Default: `process.cwd()`. */
  readonly cwd?: string;
  readonly parentSession?: string;
  readonly spawnedBy?: string;
  /** Default: `user`. */
  readonly origin?: 'user' | 'subagent';
  /** Default: 0. */
  readonly delegationDepth?: number;
  /** Leading events inherited from another log; must be a closed log with seq contiguous from 0. */
  readonly seed?: readonly SessionEvent[];
}

/** What `load` found wrong at the end of a file and dropped. */
export interface RecoveredTail {
  /** 1-based line number of the dropped line. */
  readonly line: number;
  readonly reason: string;
  readonly droppedText: string;
}

export interface LoadedSessionLog extends SessionLog {
  readonly path: string;
  readonly recovered?: RecoveredTail;
}

export interface SessionStoreOptions {
  /** Directory holding one `<id>.jsonl` per session; created on first use. */
  readonly root: string;
  /** Sees every piece of text before it reaches a session file, and may refuse it by throwing (the toolkit's secret scan). */
  readonly beforeWrite?: (path: string, text: string) => void;
  /**
   * `false` for a scratch root that lives no longer than the process needs it (a scenario's work
   * folder): a new session file is created in place with synchronous calls and never synced to
   * disk, instead of published whole through a synced temp file. Default `true`.
   */
  readonly durable?: boolean;
}

/** What `resume` gives back: the reopened session and, after a crash, the line it dropped. */
export interface ResumedSession {
  readonly session: Session;
  readonly recovered?: RecoveredTail;
}
