import { readFile } from 'node:fs/promises';
import { PassThrough, Readable, Writable } from 'node:stream';
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type ClientConnection,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { describe, expect, test, type TestContext } from 'vitest';
import {
  callTool,
  createScriptedRuntime,
  hang,
  httpError,
  say,
  type ScriptedRuntime,
} from '../../test/support/scripted-runtime.js';
import { createMemoryLogger } from '../runtime/logger.js';
import { parseSessionLog } from '../session/jsonl.js';
import { createAcpAgentRuntime } from './acp-agent-runtime.js';
import { runAcpAgent } from './run-acp-agent.js';

const LINEAGE = 'main/call_acp';

interface AgentUnderTest {
  readonly conn: ClientConnection;
  readonly updates: SessionUpdate[];
  readonly model: ScriptedRuntime;
  /** Every line the agent wrote to its stdout. */
  readonly stdoutLines: string[];
  /** Settles when runAcpAgent returns. */
  readonly finished: Promise<void>;
  /** Resolves once the message chunks received so far contain `text`. */
  received(text: string): Promise<void>;
  /** Closes the agent's stdin, as a client leaving. */
  leave(): Promise<void>;
  newSession(): Promise<string>;
}

/** The agent in this process over in-memory pipes, its model scripted over loopback HTTP. */
async function startAgent(context: TestContext): Promise<AgentUnderTest> {
  const model = await createScriptedRuntime();
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stdoutLines: string[] = [];
  let pending = '';
  stdout.on('data', (data: Buffer) => {
    const lines = (pending + data.toString('utf8')).split('\n');
    pending = lines.pop() ?? '';
    stdoutLines.push(...lines);
  });
  const finished = runAcpAgent({
    stdin,
    stdout,
    logger: createMemoryLogger(),
    env: { DEEPSEEK_BASE_URL: model.server.url, NESTCAST_SESSIONS_ROOT: model.sessionsRoot, NESTCAST_LINEAGE: LINEAGE },
  });
  const updates: SessionUpdate[] = [];
  const waiters: { text: string; resolve: () => void }[] = [];
  const conn = client({ name: 'test-client' })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params.update);
      const text = chunkText(updates);
      for (const waiter of waiters.filter((w) => text.includes(w.text))) waiter.resolve();
    })
    .connect(ndJsonStream(Writable.toWeb(stdin), Readable.toWeb(stdout) as ReadableStream<Uint8Array>));
  const leave = async (): Promise<void> => {
    stdin.end();
    await finished;
  };
  context.onTestFinished(async () => {
    await leave();
    await model.close();
  });
  await conn.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
  return {
    conn,
    updates,
    model,
    stdoutLines,
    finished,
    leave,
    received: (text) => new Promise((resolve) => waiters.push({ text, resolve })),
    newSession: async () =>
      (await conn.agent.request(methods.agent.session.new, { cwd: model.sessionsRoot, mcpServers: [] })).sessionId,
  };
}

const prompt = (under: AgentUnderTest, sessionId: string, text: string) =>
  under.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });

const chunkText = (updates: readonly SessionUpdate[]): string =>
  updates
    .map((update) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? update.content.text : '',
    )
    .join('');

describe('runAcpAgent and createAcpAgentRuntime options', () => {
  test('refuse an option they do not read: a misspelt modelFetch sent the model calls to the network', async () => {
    const replay: typeof fetch = () => Promise.reject(new Error('not called'));
    const base = { stdin: new PassThrough(), stdout: new PassThrough(), env: {}, logger: createMemoryLogger() };
    await expect(runAcpAgent({ ...base, modelFech: replay } as never)).rejects.toMatchObject({
      code: 'INVALID_RUNTIME_OPTIONS',
      message: expect.stringContaining('runAcpAgent: unknown option "modelFech" (did you mean "modelFetch"?)'),
    });
    expect(() => createAcpAgentRuntime({ env: {}, logger: base.logger, modelFech: replay } as never)).toThrow(
      'createAcpAgentRuntime: unknown option "modelFech" (did you mean "modelFetch"?)',
    );
  });
});

describe.concurrent('nestcast acp-agent over ACP', () => {
  test('a prompt streams the model text as chunks, reports tool use, and answers end_turn', async (context) => {
    const under = await startAgent(context);
    under.model.script(LINEAGE, callTool('call_t1', 'task_list', {}), say('Nothing is running in the background.'));
    const sessionId = await under.newSession();
    expect(await prompt(under, sessionId, 'any tasks?')).toEqual({ stopReason: 'end_turn' });

    expect(chunkText(under.updates)).toBe('Nothing is running in the background.');
    expect(under.updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').length).toBeGreaterThan(1);
    const toolUpdates = under.updates.filter(
      (u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update',
    );
    expect(toolUpdates).toMatchObject([
      { sessionUpdate: 'tool_call', toolCallId: 'call_t1', title: 'task_list', status: 'in_progress' },
      { sessionUpdate: 'tool_call_update', toolCallId: 'call_t1', status: 'completed', rawOutput: '(no tasks)' },
    ]);
    expect(under.updates.findIndex((u) => u.sessionUpdate === 'tool_call_update')).toBeLessThan(
      under.updates.findIndex((u) => u.sessionUpdate === 'agent_message_chunk'),
    );
  });

  test('session/new creates a top-level session under the sessions root with the lineage from the environment', async (context) => {
    const under = await startAgent(context);
    under.model.script(LINEAGE, say('hi'));
    const sessionId = await under.newSession();
    await prompt(under, sessionId, 'hello');
    await under.leave();
    const [path] = await under.model.runtime.sessions.list();
    const log = parseSessionLog(await readFile(path ?? '', 'utf8'), path ?? '');
    expect(log.header).toMatchObject({
      id: sessionId,
      lineage: LINEAGE,
      cwd: under.model.sessionsRoot,
      origin: 'user',
      delegationDepth: 0,
    });
    expect(log.events.map((event) => event.type)).toEqual([
      'user/message',
      'turn/start',
      'step/start',
      'assistant/message',
      'step/end',
      'turn/end',
    ]);
  });

  test('session/cancel ends the running turn with cancelled and a balanced log', async (context) => {
    const under = await startAgent(context);
    under.model.script(LINEAGE, hang('partial words'));
    const sessionId = await under.newSession();
    const answer = prompt(under, sessionId, 'go');
    await under.received('partial words');
    await under.conn.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await answer).toEqual({ stopReason: 'cancelled' });
  });

  test('a failed turn answers with a JSON-RPC error carrying the diagnostic, never end_turn', async (context) => {
    const under = await startAgent(context);
    under.model.script(LINEAGE, httpError(401, 'bad key'));
    const sessionId = await under.newSession();
    const error = await prompt(under, sessionId, 'go').catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: -32603, data: { code: 'AUTH' } });
    expect((error as Error).message).toMatch(/turn 1 failed: AUTH: .*401/);
  });

  test('a response cut by the token limit answers max_tokens', async (context) => {
    const under = await startAgent(context);
    under.model.script(LINEAGE, say('truncat', { finish: 'length' }));
    const sessionId = await under.newSession();
    expect(await prompt(under, sessionId, 'go')).toEqual({ stopReason: 'max_tokens' });
  });

  test('stdin EOF during a prompt stops the turn, closes the session and returns', async (context) => {
    const under = await startAgent(context);
    under.model.script(LINEAGE, hang('never finishes'));
    const sessionId = await under.newSession();
    void prompt(under, sessionId, 'go').catch(() => undefined);
    await under.received('never finishes');
    await under.leave();
    expect(under.model.runtime.sessions.live()).toEqual([]);
    const [path] = await under.model.runtime.sessions.list();
    const log = parseSessionLog(await readFile(path ?? '', 'utf8'), path ?? '');
    expect(log.events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: 'aborted' } });
  });

  test('refuses a second session, a relative cwd, and MCP servers', async (context) => {
    const under = await startAgent(context);
    await expect(
      under.conn.agent.request(methods.agent.session.new, { cwd: 'relative/dir', mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      under.conn.agent.request(methods.agent.session.new, {
        cwd: '/',
        mcpServers: [{ name: 'x', command: 'x', args: [], env: [] }],
      }),
    ).rejects.toThrow(/MCP servers are not supported/);
    await under.newSession();
    await expect(under.newSession()).rejects.toThrow(/one session per process/);
  });

  test('stdout carries protocol frames only', async (context) => {
    const under = await startAgent(context);
    under.model.script(LINEAGE, say('framed'));
    const sessionId = await under.newSession();
    await prompt(under, sessionId, 'go');
    await under.leave();
    expect(under.stdoutLines.length).toBeGreaterThan(3);
    for (const line of under.stdoutLines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });
});
