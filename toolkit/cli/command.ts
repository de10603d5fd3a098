import type { CliIo } from './io.js';

/** One `nestcast <name>` command. `run` returns the process exit code. */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The full `--help` text. */
  readonly help: string;
  /** Its stdout carries a protocol (acp-agent): help and messages go to stderr. */
  readonly stdoutIsProtocol?: boolean;
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/** A mistake in how the command was called: reported with the command's usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
