import { isAbsolute } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  agent,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type AgentContext,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import type { Agent } from '../agents/agent.js';
import { describeThrown } from '../error-text.js';
import { HarnessError } from '../errors.js';
import { optionKeys, unknownOption } from '../option-keys.js';
import type { Logger } from '../runtime/logger.js';
import { acpStopReason } from './acp-stop-reason.js';
import { createAcpAgentRuntime, type AcpAgentRuntime, type AcpAgentRuntimeOptions } from './acp-agent-runtime.js';
import { promptText } from './prompt-text.js';
import { updateForModelEvent, updateForSessionEvent } from './session-updates.js';
import { UpdateQueue } from './update-queue.js';

export interface RunAcpAgentOptions {
  /** Protocol frames in (the client's requests); its end is the client leaving. */
  readonly stdin: Readable;
  /** Protocol frames out, and nothing else. */
  readonly stdout: Writable;
  readonly env: NodeJS.ProcessEnv;
  /** Every log line goes here; it must not write to `stdout`. */
  readonly logger: Logger;
  readonly modelFetch?: typeof fetch;
  /** Builds the runtime to serve; default `createAcpAgentRuntime`. The seam for adding plugins or a replaying fetch. */
  readonly createRuntime?: (options: AcpAgentRuntimeOptions) => AcpAgentRuntime | Promise<AcpAgentRuntime>;
  /** Reported in `initialize` as agentInfo.version when given. */
  readonly version?: string;
}

interface ServedSession {
  readonly agent: Agent;
  /** Aborts the running prompt; present while one runs. */
  turn?: AbortController;
}

/** A misspelt `modelFetch` would send the model calls to the network instead of the replay meant. */
const RUN_OPTION_KEYS = optionKeys<RunAcpAgentOptions>({
  stdin: true,
  stdout: true,
  env: true,
  logger: true,
  modelFetch: true,
  createRuntime: true,
  version: true,
});

/**
 * Serves the harness as an ACP agent until the client closes stdin, then stops any running
 * turn, disposes the runtime (closing every session file) and resolves.
 *
 * One ACP session per process: its lineage comes from NESTCAST_LINEAGE, and two sessions with one
 * lineage would be indistinguishable in recordings and harvests.
 */
export async function runAcpAgent(options: RunAcpAgentOptions): Promise<void> {
  const unknown = unknownOption(options, RUN_OPTION_KEYS);
  if (unknown !== undefined) throw new HarnessError('INVALID_RUNTIME_OPTIONS', `runAcpAgent: ${unknown}`);
  const { logger } = options;
  const served = await (options.createRuntime ?? createAcpAgentRuntime)({
    env: options.env,
    logger,
    ...(options.modelFetch ? { modelFetch: options.modelFetch } : {}),
  });
  const { runtime } = served;
  let session: ServedSession | undefined;

  const app = agent({ name: 'nestcast' })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: false },
      },
      authMethods: [],
      ...(options.version !== undefined
        ? { agentInfo: { name: 'nestcast', title: 'nestcast acp-agent', version: options.version } }
        : {}),
    }))
    .onRequest(methods.agent.session.new, async ({ params }) => {
      if (session)
        throw RequestError.invalidRequest(
          undefined,
          `this agent serves one session per process (lineage ${served.lineage}); start another process for another session`,
        );
      if (!isAbsolute(params.cwd))
        throw RequestError.invalidParams(
          { cwd: params.cwd },
          `cwd must be an absolute path, got ${JSON.stringify(params.cwd)}`,
        );
      if (params.mcpServers.length > 0)
        throw RequestError.invalidParams(undefined, 'MCP servers are not supported; send mcpServers: []');
      const created = await runtime.sessions.create({ lineage: served.lineage, cwd: params.cwd });
      session = { agent: runtime.agents.create({ ...served.agentOptions, session: created }) };
      logger.info(`session ${created.id} (${served.lineage}) created in ${created.path}`);
      return { sessionId: created.id };
    })
    .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
      const target = session;
      if (!target || target.agent.id !== params.sessionId) throw RequestError.sessionNotFound(params.sessionId);
      if (target.turn)
        throw RequestError.invalidRequest(
          undefined,
          `session ${params.sessionId} is already running a prompt; cancel it or wait for its answer`,
        );
      const text = promptText(params.prompt);
      const turn = new AbortController();
      target.turn = turn;
      try {
        return {
          stopReason: await runPrompt(target.agent, text, turn.signal, client, params.sessionId, served, logger),
        };
      } finally {
        target.turn = undefined;
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      if (session?.agent.id === params.sessionId) session.turn?.abort(new Error('the client sent session/cancel'));
    });

  const conn = app.connect(
    ndJsonStream(Writable.toWeb(options.stdout), Readable.toWeb(options.stdin) as ReadableStream<Uint8Array>),
  );
  await conn.closed;
  session?.turn?.abort(new Error('the client closed stdin'));
  await runtime.dispose();
}

async function runPrompt(
  agent: Agent,
  text: string,
  signal: AbortSignal,
  client: AgentContext,
  sessionId: string,
  served: AcpAgentRuntime,
  logger: Logger,
): Promise<StopReason> {
  const updates = new UpdateQueue((error) =>
    logger.warn(`session ${sessionId}: a session/update could not be sent: ${describeThrown(error)}`),
  );
  const send = (update: SessionUpdate | undefined): void => {
    if (update) updates.push(() => client.notify(methods.client.session.update, { sessionId, update }));
  };
  const stopTap = served.modelStream.on(agent.lineage, (event) => send(updateForModelEvent(event)));
  const stopLog = agent.session.onAppend((event) => send(updateForSessionEvent(event)));
  try {
    const outcome = await agent.run(text, { signal });
    await updates.drained();
    return acpStopReason(outcome);
  } finally {
    stopTap();
    stopLog();
  }
}
