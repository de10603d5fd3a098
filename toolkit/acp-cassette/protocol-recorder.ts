import { CHILD_ENV } from '../../harness/acp-agent/child-env.js';
import type { AcpChannel, ChildExit, OpenAcpChannel } from '../../providers/acp/index.js';
import { spawnAcpChild } from '../../providers/acp/acp-child-process.js';
import { toPlaceholders } from './run-paths.js';
import {
  ACP_EXCHANGE_FORMAT,
  ACP_EXCHANGE_VERSION,
  type AcpExchange,
  type ExchangeEntry,
  type RecordedExit,
} from './types.js';

/**
 * Records ACP children at the protocol level: each run's child is spawned as usual, and every
 * frame both ways, its delay, the exit and the stderr tail become that lineage's exchange once
 * the run's teardown has stopped it.
 */
export class ProtocolRecorder {
  private readonly done = new Map<string, AcpExchange>();
  private readonly pending = new Set<Promise<unknown>>();

  /** The channel factory to give the acp provider. */
  readonly channel: OpenAcpChannel = (spec, logger) => {
    const paths = { cwd: spec.cwd, sessionsRoot: spec.env[CHILD_ENV.sessionsRoot] };
    const entries: ExchangeEntry[] = [];
    let last = performance.now();
    const delay = (): number => {
      const now = performance.now();
      const ms = Math.round((now - last) * 10) / 10;
      last = now;
      return ms;
    };
    const inner = spawnAcpChild(spec, logger, (direction, message) => {
      entries.push({
        from: direction === 'out' ? 'client' : 'agent',
        delayMs: delay(),
        message: toPlaceholders(message as unknown as Record<string, unknown>, paths),
      });
    });
    let tearingDown = false;
    void inner.exited.then((exit) => {
      if (!tearingDown) entries.push({ from: 'agent', delayMs: delay(), exit: recordedExit(exit) });
    });
    let termination: ReturnType<AcpChannel['terminate']> | undefined;
    const channel: AcpChannel = {
      get pid() {
        return inner.pid;
      },
      stream: inner.stream,
      exited: inner.exited,
      get exit() {
        return inner.exit;
      },
      stderrTail: () => inner.stderrTail(),
      junk: () => inner.junk(),
      overflow: () => inner.overflow(),
      terminate: (graces) => {
        if (termination) return termination;
        tearingDown = inner.exit === undefined;
        termination = inner.terminate(graces).then((ended) => {
          this.done.set(spec.lineage, {
            format: ACP_EXCHANGE_FORMAT,
            version: ACP_EXCHANGE_VERSION,
            lineage: spec.lineage,
            command: [spec.command, ...spec.args].map((part) =>
              toPlaceholders(part, paths).split(`${process.cwd()}/`).join(''),
            ),
            entries,
            ...(tearingDown ? { teardownExit: recordedExit(ended.exit) } : {}),
            stderrTail: toPlaceholders([...inner.stderrTail()], paths),
          });
          return ended;
        });
        this.pending.add(termination);
        return termination;
      },
    };
    return channel;
  };

  /** Every exchange recorded so far, by lineage order; waits for teardowns under way. */
  async exchanges(): Promise<AcpExchange[]> {
    await Promise.allSettled([...this.pending]);
    return [...this.done.values()].sort((a, b) => (a.lineage < b.lineage ? -1 : a.lineage > b.lineage ? 1 : 0));
  }
}

function recordedExit(exit: ChildExit): RecordedExit {
  return { code: exit.code, signal: exit.signal };
}
