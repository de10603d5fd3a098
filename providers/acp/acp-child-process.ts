import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../../harness/runtime/logger.js';
import type { ChildStderr } from './acp-provider-config.js';

export interface ChildSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly stderr: ChildStderr;
  /** Prefix of the log lines that carry the child's stderr. */
  readonly label: string;
}

/** How the process ended. `spawnError` is set when it never ran (no pid, no exit code). */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly spawnError?: Error;
}

/** A spawned ACP child: its pipes and the proof that it is gone. */
export interface AcpChildProcess {
  /** Undefined when the spawn failed. */
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Settles once the process has exited (or failed to start); never rejects. */
  readonly exited: Promise<ChildExit>;
  /** The exit, once known. */
  readonly exit: ChildExit | undefined;
  signal(signal: NodeJS.Signals): void;
}

const STDERR_TAIL_LINES = 5;

/** Spawns the child with piped stdin/stdout. A failed spawn does not throw: it shows up in `exited`. */
export function spawnAcpChild(spec: ChildSpec, logger: Logger): AcpChildProcess & { stderrTail(): readonly string[] } {
  const child = spawn(spec.command, [...spec.args], {
    cwd: spec.cwd,
    env: spec.env,
    stdio: ['pipe', 'pipe', spec.stderr === 'log' ? 'pipe' : 'inherit'],
  }) as ChildProcessByStdio<Writable, Readable, Readable | null>;
  let exit: ChildExit | undefined;
  const tail: string[] = [];
  const exited = new Promise<ChildExit>((resolve) => {
    const settle = (value: ChildExit): void => {
      exit ??= value;
      resolve(exit);
    };
    child.once('exit', (code, signal) => settle({ code, signal }));
    // A spawn failure emits 'error' and never 'exit'; a listener is mandatory or it throws in the parent.
    child.on('error', (error) => {
      if (child.pid === undefined) settle({ code: null, signal: null, spawnError: error });
      else logger.warn(`${spec.label}: child process error: ${error.message}`);
    });
  });
  // EPIPE after the child died reaches the SDK through the web stream; this keeps Node from reporting it twice.
  child.stdin.on('error', () => undefined);
  if (child.stderr) {
    createInterface({ input: child.stderr }).on('line', (line) => {
      tail.push(line);
      if (tail.length > STDERR_TAIL_LINES) tail.shift();
      logger.info(`${spec.label} stderr: ${line}`);
    });
  }
  return {
    pid: child.pid,
    stdin: child.stdin,
    stdout: child.stdout,
    exited,
    get exit() {
      return exit;
    },
    signal: (signal) => {
      if (exit === undefined) child.kill(signal);
    },
    stderrTail: () => [...tail],
  };
}
