import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import type { Logger } from '../../harness/runtime/logger.js';
import type { ChildStderr } from './acp-provider-config.js';
import type { FrameDirection, FrameTooLargeError, JunkReport } from './frame-stream.js';
import type { DisposeGraces, Termination } from './terminate-child.js';

/** How the process ended. `spawnError` is set when it never ran (no pid, no exit code). */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly spawnError?: Error;
}

/** What the provider starts for one run: the command and where its output goes. */
export interface ChannelSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly stderr: ChildStderr;
  /** Prefix of the log lines about this child. */
  readonly label: string;
  /** The child's lineage (a protocol cassette is kept per lineage). */
  readonly lineage: string;
}

/**
 * One ACP agent as the provider sees it: a stream of frames, how it ended, and the ladder that
 * stops it. A spawned process is one; a protocol-cassette replay is another that spawns nothing.
 */
export interface AcpChannel {
  /** Undefined when nothing was spawned (a failed spawn, an in-process replay). */
  readonly pid: number | undefined;
  readonly stream: Stream;
  /** Settles once the agent has ended (or failed to start); never rejects. */
  readonly exited: Promise<ChildExit>;
  readonly exit: ChildExit | undefined;
  /** The last lines of its stderr, bounded; empty when stderr is inherited. */
  stderrTail(): readonly string[];
  junk(): JunkReport;
  overflow(): FrameTooLargeError | undefined;
  /** The dispose ladder; the same promise on every call. */
  terminate(graces: DisposeGraces): Promise<Termination>;
}

/** Opens a channel for one run. The default spawns `spec.command`; a protocol cassette supplies its own. */
export type OpenAcpChannel = (spec: ChannelSpec, logger: Logger) => AcpChannel;

/** Sees every frame of every channel, both ways (a protocol recorder). */
export type FrameListener = (direction: FrameDirection, message: AnyMessage) => void;
