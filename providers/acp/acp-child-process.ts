import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../../harness/runtime/logger.js';
import type { AcpChannel, ChannelSpec, ChildExit, FrameListener } from './acp-channel.js';
import { BoundedTail, quoteHead, STDERR_TAIL_CHARS } from './bounded-output.js';
import { frameStream } from './frame-stream.js';
import { trackGroup } from './live-groups.js';
import { groupMembers, signalGroup } from './process-group.js';
import { settledWithin } from './sleep.js';
import { terminateChild, type Termination } from './terminate-child.js';

const STDERR_TAIL_LINES = 5;
/** Once the group is gone its stdout ends at once, unless something outside the group holds it. */
const DRAIN_WAIT_MS = 250;
/** A stderr line longer than this is logged cut, so one endless line cannot fill the log or memory. */
const LOG_LINE_CHARS = 2_000;

/**
 * Spawns the child in a process group of its own (detached: it leads the group), so the ladder
 * can signal the child and everything it started. A failed spawn does not throw: it shows up in
 * `exited`.
 */
export function spawnAcpChild(spec: ChannelSpec, logger: Logger, onFrame?: FrameListener): AcpChannel {
  const child = spawn(spec.command, [...spec.args], {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: ['pipe', 'pipe', spec.stderr === 'log' ? 'pipe' : 'inherit'],
  }) as ChildProcessByStdio<Writable, Readable, Readable | null>;
  let exit: ChildExit | undefined;
  const exited = new Promise<ChildExit>((resolve) => {
    const settle = (value: ChildExit): void => {
      exit ??= value;
      resolve(exit);
    };
    // 'exit' can come before the pipes are read to their end: the stderr lines a crashing child
    // wrote last, the ones its exit diagnostic quotes, would be missing. 'close' comes after both;
    // bounded, because a grandchild outside the group may hold a pipe open.
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.once('exit', (code, signal) => {
      void settledWithin(closed, DRAIN_WAIT_MS).then(() => settle({ code, signal }));
    });
    // A spawn failure emits 'error' and never 'exit'; a listener is mandatory or it throws in the parent.
    child.on('error', (error) => {
      if (child.pid === undefined) settle({ code: null, signal: null, spawnError: error });
      else logger.warn(`${spec.label}: child process error: ${error.message}`);
    });
  });
  // EPIPE after the child died reaches the SDK through the write; this keeps Node from reporting it twice.
  child.stdin.on('error', () => undefined);
  const tail = new BoundedTail(STDERR_TAIL_CHARS);
  if (child.stderr) logStderr(child.stderr, tail, (line) => logger.info(`${spec.label} stderr: ${line}`));
  const frames = frameStream(child.stdin, child.stdout, {
    onFirstJunk: (quoted) =>
      logger.warn(
        `${spec.label}: the ACP child wrote non-protocol output to stdout (ignored and counted; log to stderr instead): ${quoted}`,
      ),
    ...(onFrame ? { onFrame } : {}),
  });
  const pgid = child.pid;
  const untrack = pgid === undefined ? () => undefined : trackGroup(pgid);
  // A group with nothing left in it once the child exits is ours no more: its id is free, and the
  // kernel may give it to an unrelated group, which neither the ladder, a forwarded signal nor the
  // SIGKILL at exit may reach. It is untracked then, not at dispose. A group something still runs
  // in stays ours (its id is held while it has a member) until the ladder kills it.
  let freed = false;
  void exited.then(() => {
    if (pgid === undefined || groupMembers(pgid).length > 0) return;
    freed = true;
    untrack();
  });
  // Frames the child wrote just before it exited may still be in the pipe when 'exit' fires.
  const drained = new Promise<void>((resolve) => {
    child.stdout.once('close', resolve);
    child.stdout.once('end', resolve);
  });
  let termination: Promise<Termination> | undefined;
  const channel: AcpChannel = {
    pid: child.pid,
    stream: frames.stream,
    exited,
    get exit() {
      return exit;
    },
    stderrTail: () => lastLines(tail.text()),
    junk: frames.junk,
    overflow: frames.overflow,
    terminate: (graces) =>
      (termination ??= terminateChild(
        {
          exited,
          exit: () => exit,
          endInput: () => child.stdin.end(),
          members: () => (pgid === undefined || freed ? [] : groupMembers(pgid)),
          signal: (signal) => {
            if (pgid !== undefined && !freed) signalGroup(pgid, signal);
          },
        },
        graces,
      ).then(async (ended) => {
        if (ended.step !== 'survived') untrack();
        await settledWithin(drained, DRAIN_WAIT_MS);
        return ended;
      })),
  };
  return channel;
}

/** Logs stderr line by line (each line cut at LOG_LINE_CHARS) and keeps its bounded tail. */
function logStderr(stderr: Readable, tail: BoundedTail, log: (line: string) => void): void {
  stderr.setEncoding('utf8');
  let line = '';
  let lineDropped = 0;
  const flush = (): void => {
    log(lineDropped === 0 ? line : `${line}… [${lineDropped} more characters left out]`);
    line = '';
    lineDropped = 0;
  };
  stderr.on('data', (chunk: string) => {
    tail.append(chunk);
    const parts = chunk.split('\n');
    for (let i = 0; i < parts.length; i += 1) {
      const part = parts[i] as string;
      const room = LOG_LINE_CHARS - line.length;
      if (part.length <= room) line += part;
      else {
        line += part.slice(0, Math.max(room, 0));
        lineDropped += part.length - Math.max(room, 0);
      }
      if (i < parts.length - 1) flush();
    }
  });
  stderr.on('end', () => {
    if (line !== '' || lineDropped > 0) flush();
  });
}

/** The last few non-empty lines of the tail, each quoted within bounds. */
function lastLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-STDERR_TAIL_LINES)
    .map((line) => quoteHead(line, LOG_LINE_CHARS));
}
