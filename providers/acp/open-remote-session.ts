import { methods, PROTOCOL_VERSION, RequestError, type ClientConnection } from '@agentclientprotocol/sdk';
import type { AcpChannel } from './acp-channel.js';
import { describeRpcError } from './describe-exit.js';

export type StartupStage = 'initialize' | 'session/new';

/** Why start-up did not reach a remote session, and at which request. */
export type StartupFailureKind =
  /** The request signal aborted. */
  | 'aborted'
  /** The parent agent was disposed while the child started. */
  | 'parent-disposed'
  | 'timeout'
  /** The process exited (or never started). */
  | 'exited'
  /** The connection closed (stdout ended, a write failed). */
  | 'closed'
  /** The child answered with a JSON-RPC error. */
  | 'rpc'
  /** The child answered, but not as ACP says it must. */
  | 'protocol';

export class StartupFailure extends Error {
  constructor(
    readonly kind: StartupFailureKind,
    readonly stage: StartupStage,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface OpenSessionOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/**
 * `initialize` then `session/new`, raced against the timeout, the signal and the child's exit.
 * Resolves with the remote session id; rejects with a StartupFailure.
 */
export function openRemoteSession(
  conn: ClientConnection,
  child: AcpChannel,
  options: OpenSessionOptions,
): Promise<string> {
  let stage: StartupStage = 'initialize';
  const handshake = async (): Promise<string> => {
    const init = await conn.agent.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'nestcast', version: '0' },
    });
    if (init.protocolVersion !== PROTOCOL_VERSION) {
      throw new StartupFailure(
        'protocol',
        stage,
        `answered initialize with protocol version ${String(init.protocolVersion)}; nestcast speaks ${PROTOCOL_VERSION}`,
      );
    }
    stage = 'session/new';
    const created = await conn.agent.request(methods.agent.session.new, { cwd: options.cwd, mcpServers: [] });
    if (typeof created.sessionId !== 'string' || created.sessionId === '') {
      throw new StartupFailure('protocol', stage, 'answered session/new without a session id');
    }
    return created.sessionId;
  };

  return new Promise<string>((resolve, reject) => {
    const fail = (failure: StartupFailure): void => {
      cleanup();
      reject(failure);
    };
    const timer = setTimeout(
      () => fail(new StartupFailure('timeout', stage, `did not answer ${stage} within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const onAbort = (): void =>
      fail(
        new StartupFailure('aborted', stage, `start-up was cancelled while waiting for ${stage}`, {
          cause: options.signal.reason,
        }),
      );
    const cleanup = (): void => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    void child.exited.then((exit) =>
      fail(new StartupFailure('exited', stage, `exited before answering ${stage}`, { cause: exit.spawnError })),
    );
    handshake().then(
      (sessionId) => {
        cleanup();
        resolve(sessionId);
      },
      (error: unknown) => {
        if (error instanceof StartupFailure) fail(error);
        else if (error instanceof RequestError)
          fail(new StartupFailure('rpc', stage, `answered ${stage} with ${describeRpcError(error)}`, { cause: error }));
        else
          fail(
            new StartupFailure('closed', stage, `closed the connection before answering ${stage}`, { cause: error }),
          );
      },
    );
  });
}
