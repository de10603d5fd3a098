import { CHILD_ENV } from '../../harness/acp-agent/child-env.js';
import { deferred } from '../../harness/runtime/deferred.js';
import type { AnyMessage } from '@agentclientprotocol/sdk';
import type { AcpChannel, ChannelSpec, ChildExit, OpenAcpChannel, Termination } from '../../providers/acp/index.js';
import { canonicalize } from '../canonical/canonical-json.js';
import { firstDivergence } from '../canonical/first-divergence.js';
import { namedList } from '../errors/named-list.js';
import { pause, scaledDelay, type ReplayTiming } from '../replay/replay-timing.js';
import { showValue } from '../replay/replay-messages.js';
import { AcpCassetteError } from './acp-cassette-error.js';
import { fromPlaceholders, toPlaceholders, type RunPaths } from './run-paths.js';
import type { AcpExchange, ExchangeEntry } from './types.js';
import { exchangeFile } from './write-acp-cassette.js';

export interface ProtocolReplayOptions {
  readonly timing?: ReplayTiming;
  /** Shown in every failure: how to re-record. */
  readonly recordHint: string;
  /** The recording folder, for messages. */
  readonly location: string;
}

/**
 * Plays recorded ACP agents in process: no command is started. Each run's channel checks every
 * frame the client sends against the recorded one (first divergence, typed error) and streams
 * the agent's recorded frames in order, instantly or with their recorded delays, waiting at each
 * recorded client frame until the client sends it, so a cancel or a permission answer is served
 * where the recording had it.
 */
export class ProtocolReplay {
  private readonly problems: AcpCassetteError[] = [];
  private readonly consumed = new Map<string, { consumed: number; total: number }>();

  constructor(
    private readonly exchanges: ReadonlyMap<string, AcpExchange>,
    private readonly options: ProtocolReplayOptions,
  ) {}

  /** The channel factory to give the acp provider. */
  readonly channel: OpenAcpChannel = (spec) => {
    const exchange = this.exchanges.get(spec.lineage);
    if (!exchange) {
      const failure = new AcpCassetteError(
        'ACP_CASSETTE_NOT_FOUND',
        `ACP child "${spec.lineage}" has no protocol recording in ${this.options.location} (recorded: ${namedList([...this.exchanges.keys()], spec.lineage) || 'none'}); ` +
          `nothing was started. Record it with: ${this.options.recordHint}`,
      );
      this.problems.push(failure);
      return failedChannel(failure);
    }
    return replayExchange(exchange, spec, this.options, {
      failed: (failure) => this.problems.push(failure),
      progress: (consumed, total) => this.consumed.set(spec.lineage, { consumed, total }),
    });
  };

  /** Every divergence, plus each exchange a run did not play to its end. */
  failures(): AcpCassetteError[] {
    const left = [...this.consumed].filter(([, c]) => c.consumed < c.total);
    const unconsumed = left.map(
      ([lineage, c]) =>
        new AcpCassetteError(
          'ACP_EXCHANGE_UNCONSUMED',
          `ACP child "${lineage}" stopped at client frame ${c.consumed} of ${c.total} recorded in ${this.options.location}/${exchangeFile(lineage)}: ` +
            `the client now says less than when it was recorded; if that is intended, re-record with: ${this.options.recordHint}`,
        ),
    );
    return [...this.problems, ...(this.problems.length === 0 ? unconsumed : [])];
  }
}

interface ReplayHooks {
  failed(failure: AcpCassetteError): void;
  progress(consumedClientFrames: number, totalClientFrames: number): void;
}

function replayExchange(
  exchange: AcpExchange,
  spec: ChannelSpec,
  options: ProtocolReplayOptions,
  hooks: ReplayHooks,
): AcpChannel {
  const paths: RunPaths = { cwd: spec.cwd, sessionsRoot: spec.env[CHILD_ENV.sessionsRoot] };
  const timing = options.timing ?? 'instant';
  const file = `${options.location}/${exchangeFile(exchange.lineage)}`;
  const entries = exchange.entries;
  const clientTotal = entries.filter((entry) => entry.from === 'client').length;
  let clientSeen = 0;
  let cursor = 0;
  let exit: ChildExit | undefined;
  const exitOnce = deferred<ChildExit>();
  const exited = exitOnce.promise;
  const resolveExit = (value: ChildExit): void => {
    exit ??= value;
    exitOnce.resolve(exit);
  };
  const stop = new AbortController();
  let controller!: ReadableStreamDefaultController<AnyMessage>;
  let readableDone = false;
  let pumping = false;
  let pendingExit: ChildExit | undefined;
  /** Client frames waiting for the recorded agent frames before theirs to be played. */
  let waiters: (() => void)[] = [];
  const wakeWaiters = (): void => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const endReadable = (error?: Error): void => {
    if (readableDone) return;
    readableDone = true;
    if (error) controller.error(error);
    else controller.close();
  };
  const diverged = (failure: AcpCassetteError): void => {
    hooks.failed(failure);
    endReadable(failure);
    stop.abort(failure);
    wakeWaiters();
  };

  /** Streams agent entries up to the next client frame (or the end). */
  const pump = async (): Promise<void> => {
    if (pumping) return;
    pumping = true;
    try {
      while (cursor < entries.length && !stop.signal.aborted) {
        const entry = entries[cursor] as ExchangeEntry;
        if (entry.from === 'client') break;
        await pause(scaledDelay(entry.delayMs, timing), stop.signal);
        cursor += 1;
        // A live exit can be seen before the child's last frames are read from the pipe; it takes
        // effect once the agent frames recorded after it are played, as the pipe drains first.
        if ('exit' in entry)
          pendingExit = { code: entry.exit.code, signal: entry.exit.signal as NodeJS.Signals | null };
        else if (!readableDone) controller.enqueue(fromPlaceholders(entry.message, paths) as unknown as AnyMessage);
      }
      if (pendingExit !== undefined && !stop.signal.aborted) {
        resolveExit(pendingExit);
        pendingExit = undefined;
        // A child that exited by itself has closed its stdout.
        endReadable();
      }
    } catch {
      // Stopped (teardown or divergence): nothing more is played.
    } finally {
      pumping = false;
      wakeWaiters();
    }
  };
  const agentTurn = (): boolean =>
    !stop.signal.aborted && cursor < entries.length && (entries[cursor] as ExchangeEntry).from === 'agent';

  const readable = new ReadableStream<AnyMessage>({
    start(c) {
      controller = c;
      queueMicrotask(() => void pump());
    },
  });

  const writable = new WritableStream<AnyMessage>({
    async write(message) {
      // A client frame the recording has after some agent frames waits for them to be played.
      while (agentTurn()) {
        await new Promise<void>((wake) => {
          waiters.push(wake);
          void pump();
        });
      }
      if (stop.signal.aborted) return;
      const live = canonicalize(toPlaceholders(message, paths));
      const index = cursor;
      const entry = entries[index];
      if (entry === undefined || entry.from !== 'client' || !('message' in entry)) {
        diverged(
          new AcpCassetteError(
            'ACP_UNEXPECTED_MESSAGE',
            `ACP child "${exchange.lineage}": the client sent ${describeFrame(live)} where ${file} recorded ${entry === undefined ? 'the end of the exchange' : `the agent's entry ${index + 1} next`}; ` +
              `the client now says more or says it earlier than when it was recorded; if that is intended, re-record with: ${options.recordHint}`,
          ),
        );
        return;
      }
      const divergence = firstDivergence(canonicalize(entry.message), live);
      if (divergence) {
        diverged(
          new AcpCassetteError(
            'ACP_REQUEST_MISMATCH',
            `ACP child "${exchange.lineage}": client frame ${clientSeen + 1} (entry ${index + 1} of ${file}) does not match the recording at ${divergence.path}:\n` +
              `  recorded: ${showValue(divergence.recorded)}\n` +
              `  live:     ${showValue(divergence.live)}\n` +
              `If the change is intended, re-record with: ${options.recordHint}`,
          ),
        );
        return;
      }
      cursor += 1;
      clientSeen += 1;
      hooks.progress(clientSeen, clientTotal);
      void pump();
    },
  });
  hooks.progress(0, clientTotal);

  let termination: Promise<Termination> | undefined;
  return {
    pid: undefined,
    stream: { readable, writable },
    exited,
    get exit() {
      return exit;
    },
    stderrTail: () => exchange.stderrTail.map((line) => fromPlaceholders(line, paths)),
    junk: () => ({ lines: 0, bytes: 0, first: undefined }),
    overflow: () => undefined,
    terminate: () =>
      (termination ??= (async (): Promise<Termination> => {
        if (exit !== undefined) {
          stop.abort();
          wakeWaiters();
          endReadable();
          return { step: 'gone', exit };
        }
        // Stdin EOF: the recorded agent flushes what it sent before it left, then ends as it did.
        await pump();
        stop.abort();
        wakeWaiters();
        endReadable();
        const teardownExit = exchange.teardownExit ?? { code: 0, signal: null };
        resolveExit({ code: teardownExit.code, signal: teardownExit.signal as NodeJS.Signals | null });
        return { step: 'eof', exit: exit ?? { code: 0, signal: null } };
      })()),
  };
}

function describeFrame(message: unknown): string {
  const record = message as Record<string, unknown>;
  if (typeof record['method'] === 'string') return `${'id' in record ? 'request' : 'notification'} ${record['method']}`;
  return `a response to request ${String(record['id'])}`;
}

/** A channel whose start fails at once with `failure`: the run reports it, nothing is spawned. */
function failedChannel(failure: AcpCassetteError): AcpChannel {
  const exit: ChildExit = { code: null, signal: null, spawnError: failure };
  return {
    pid: undefined,
    stream: {
      readable: new ReadableStream({ start: (c) => c.error(failure) }),
      writable: new WritableStream({ write: () => Promise.reject(failure) }),
    },
    exited: Promise.resolve(exit),
    exit,
    stderrTail: () => [],
    junk: () => ({ lines: 0, bytes: 0, first: undefined }),
    overflow: () => undefined,
    terminate: () => Promise.resolve({ step: 'gone', exit }),
  };
}
