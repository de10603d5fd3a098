/** Format tag of a protocol cassette file. */
export const ACP_EXCHANGE_FORMAT = 'nestcast-acp-exchange';
export const ACP_EXCHANGE_VERSION = 1;
/** Folder of a recording that holds one exchange file per ACP child lineage. */
export const ACP_DIR = 'acp';

/** A JSON-RPC frame that crossed the child's stdio, with the time since the previous entry. */
export interface FrameEntry {
  /** `client`: nestcast sent it to the child; `agent`: the child sent it. */
  readonly from: 'client' | 'agent';
  readonly delayMs: number;
  readonly message: Readonly<Record<string, unknown>>;
}

/** The child exited by itself (before teardown) at this point of the exchange. */
export interface ExitEntry {
  readonly from: 'agent';
  readonly delayMs: number;
  readonly exit: RecordedExit;
}

export type ExchangeEntry = FrameEntry | ExitEntry;

export interface RecordedExit {
  readonly code: number | null;
  readonly signal: string | null;
}

/**
 * Everything one ACP child said and was told, in order: the unit of a protocol cassette. Paths
 * of the run (cwd, sessions root) are stored as placeholders, so a replay in another folder matches.
 */
export interface AcpExchange {
  readonly format: typeof ACP_EXCHANGE_FORMAT;
  readonly version: typeof ACP_EXCHANGE_VERSION;
  readonly lineage: string;
  /** What was started, for people reading the file; replay never runs it. */
  readonly command: readonly string[];
  readonly entries: readonly ExchangeEntry[];
  /** How it left when teardown stopped it (absent when it exited by itself, see the exit entry). */
  readonly teardownExit?: RecordedExit;
  /** Its last stderr lines, bounded, as the provider quotes them in diagnostics. */
  readonly stderrTail: readonly string[];
}
