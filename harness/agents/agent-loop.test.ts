import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { finishChunk, textChunk, toolCallChunk, usageChunk } from '../../test/support/openai-chunks.js';
import {
  scriptedResponse,
  sseFrames,
  startLoopbackServer,
  wait,
  write,
  type LoopbackHandler,
  type LoopbackServer,
} from '../../test/support/loopback-server.js';
import { createOpenAICompatibleAdapter } from '../llm/index.js';
import { createMemoryLogger } from '../runtime/logger.js';
import { Runtime } from '../runtime.js';
import { checkInvariants } from '../session/index.js';
import type { ToolDefinition } from '../tools/types.js';

/** A loopback model that answers the n-th request with the n-th script, and 500s past the end. */
function modelScript(responses: readonly LoopbackHandler[]): LoopbackHandler {
  let next = 0;
  return (request, response) => {
    const handler =
      responses[next++] ?? scriptedResponse([{ kind: 'reply', status: 500, body: '{"error":"script exhausted"}' }]);
    return handler(request, response);
  };
}

const say = (text: string) =>
  scriptedResponse([write(sseFrames([textChunk(text), finishChunk('stop'), usageChunk(10, 2)]))]);

const callTools = (...calls: { id: string; name: string; args: string }[]) =>
  scriptedResponse([
    write(
      sseFrames([
        ...calls.flatMap((call, index) => [
          toolCallChunk(index, { id: call.id, name: call.name, args: call.args.slice(0, 3) }),
          toolCallChunk(index, { args: call.args.slice(3) }),
        ]),
        finishChunk('tool_calls'),
      ]),
    ),
  ]);

let root: string;
let server: LoopbackServer | undefined;
let runtime: Runtime;

beforeEach(async () => {
  root = await makeTempDir('agent-loop-');
  runtime = new Runtime({ sessionsRoot: root, logger: createMemoryLogger() });
});

afterEach(async () => {
  await runtime.dispose();
  await server?.close();
  server = undefined;
  await removeTempDir(root);
});

async function useModel(responses: readonly LoopbackHandler[]): Promise<LoopbackServer> {
  server = await startLoopbackServer(modelScript(responses));
  runtime.llm.register(createOpenAICompatibleAdapter({ baseUrl: server.url, env: {} }));
  return server;
}

/**
 * A tool that logs its start, holds until `release` settles (default: never) or its call is
 * aborted, then logs its end; `ended` settles after that. The test, not a timer, orders the tools.
 */
function heldTool(
  name: string,
  log: string[],
  release: Promise<unknown> = new Promise(() => undefined),
): ToolDefinition<{ q: string }> & { readonly ended: Promise<void> } {
  let ended!: () => void;
  return {
    name,
    description: `Looks up ${name}.`,
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    ended: new Promise<void>((resolve) => (ended = resolve)),
    execute: async ({ q }, { signal }) => {
      log.push(`start ${name}`);
      await new Promise<void>((resolve) => {
        void release.then(() => resolve());
        signal.addEventListener('abort', () => resolve());
      });
      log.push(`end ${name}`);
      ended();
      return `${name}:${q}`;
    },
  };
}

async function expectValidLog(path: string) {
  const log = await runtime.sessions.load(path);
  expect(checkInvariants(log, { finished: true })).toEqual([]);
  return log;
}

describe('the agent loop over a loopback model', () => {
  it('runs two tool calls from one message concurrently and commits their results in call order', async () => {
    const model = await useModel([
      callTools(
        { id: 'call_a', name: 'weather', args: '{"q":"Paris"}' },
        { id: 'call_b', name: 'news', args: '{"q":"Rome"}' },
      ),
      say('Sunny in Paris, calm in Rome.'),
    ]);
    const log: string[] = [];
    // Weather holds until news has ended: run one after the other, the turn would never end.
    const news = heldTool('news', log, Promise.resolve());
    runtime.tools.register(heldTool('weather', log, news.ended));
    runtime.tools.register(news);
    const session = await runtime.sessions.create({ lineage: 'main' });
    const agent = runtime.agents.create({ session, system: 'You are terse.' });

    const outcome = await agent.run('What is happening?');

    expect(outcome).toEqual({ turn: 1, reason: 'completed', output: 'Sunny in Paris, calm in Rome.' });
    expect(log).toEqual(['start weather', 'start news', 'end news', 'end weather']);
    const second = JSON.parse(model.requests[1]?.body ?? '{}') as {
      messages: { role: string; tool_call_id?: string; content: string }[];
    };
    expect(second.messages.filter((message) => message.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'call_a', content: 'weather:Paris' },
      { role: 'tool', tool_call_id: 'call_b', content: 'news:Rome' },
    ]);
    expect(model.requests.every((request) => request.headers['x-session-lineage'] === 'main')).toBe(true);
    const stored = await expectValidLog(session.path);
    expect(stored.events.map((event) => event.type)).toEqual([
      'user/message',
      'turn/start',
      'step/start',
      'assistant/message',
      'tool/call',
      'tool/call',
      'tool/result',
      'tool/result',
      'step/end',
      'step/start',
      'assistant/message',
      'step/end',
      'turn/end',
    ]);
  });

  it('ends the turn with max-steps when the model keeps calling tools', async () => {
    await useModel([
      callTools({ id: 'c1', name: 'weather', args: '{"q":"a"}' }),
      callTools({ id: 'c2', name: 'weather', args: '{"q":"b"}' }),
      say('never reached'),
    ]);
    runtime.tools.register(heldTool('weather', [], Promise.resolve()));
    const session = await runtime.sessions.create();
    const agent = runtime.agents.create({ session, maxSteps: 2 });

    const outcome = await agent.run('loop');

    expect(outcome.reason).toBe('max-steps');
    expect(outcome.error?.message).toContain('all 2 model calls');
    await expectValidLog(session.path);
  });

  it('closes an aborted turn with every open tool call answered', async () => {
    await useModel([
      callTools(
        { id: 'slow_1', name: 'weather', args: '{"q":"x"}' },
        { id: 'slow_2', name: 'news', args: '{"q":"y"}' },
      ),
    ]);
    const started: string[] = [];
    runtime.tools.register(heldTool('weather', started));
    runtime.tools.register(heldTool('news', started));
    const session = await runtime.sessions.create();
    const agent = runtime.agents.create({ session });
    const abort = new AbortController();
    session.onAppend((event) => {
      if (event.type === 'tool/call' && event.data.id === 'slow_2')
        setImmediate(() => abort.abort('user pressed stop'));
    });

    const outcome = await agent.run('go', { signal: abort.signal });

    expect(outcome.reason).toBe('aborted');
    expect(outcome.error).toEqual({ code: 'ABORTED', message: 'user pressed stop' });
    const stored = await expectValidLog(session.path);
    const results = stored.events.filter((event) => event.type === 'tool/result');
    expect(results.map((event) => [event.data.id, event.data.isError])).toEqual([
      ['slow_1', true],
      ['slow_2', true],
    ]);
  });

  it('keeps the words streamed before an abort as the turn’s partial output', async () => {
    server = await startLoopbackServer(
      modelScript([scriptedResponse([write(sseFrames([textChunk('Half an ans')], { done: false })), wait(60_000)])]),
    );
    let firstBytes!: () => void;
    const firstBytesRead = new Promise<void>((resolve) => (firstBytes = resolve));
    // Passes the body through unchanged and says when the adapter has read the first bytes.
    const observingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const observed = response.body?.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            controller.enqueue(chunk);
            firstBytes();
          },
        }),
      );
      return new Response(observed, { status: response.status, headers: response.headers });
    };
    runtime.llm.register(createOpenAICompatibleAdapter({ baseUrl: server.url, env: {}, fetch: observingFetch }));
    const session = await runtime.sessions.create();
    const agent = runtime.agents.create({ session });
    const abort = new AbortController();
    const running = agent.run('go', { signal: abort.signal });
    await firstBytesRead;
    await new Promise((resolve) => setImmediate(resolve));
    abort.abort();

    const outcome = await running;

    expect(outcome).toMatchObject({ reason: 'aborted', output: 'Half an ans' });
    await expectValidLog(session.path);
  });

  it('ends the turn with an error the caller can read when the model call fails', async () => {
    await useModel([scriptedResponse([{ kind: 'reply', status: 401, body: '{"error":{"message":"bad key"}}' }])]);
    const session = await runtime.sessions.create();
    const agent = runtime.agents.create({ session });

    const outcome = await agent.run('hi');

    expect(outcome.reason).toBe('error');
    expect(outcome.error?.code).toBe('AUTH');
    await expectValidLog(session.path);
  });

  it('answers a tool call with invalid JSON arguments with an error result and lets the model recover', async () => {
    const model = await useModel([
      callTools({ id: 'bad', name: 'weather', args: '{"q": nope' }),
      say('Sorry, retrying is pointless.'),
    ]);
    const log: string[] = [];
    runtime.tools.register(heldTool('weather', log, Promise.resolve()));
    const session = await runtime.sessions.create();

    const outcome = await runtime.agents.create({ session }).run('go');

    expect(outcome.reason).toBe('completed');
    expect(log).toEqual([]);
    expect(model.requests[1]?.body).toContain('not valid JSON (INVALID_TOOL_ARGS)');
    await expectValidLog(session.path);
  });

  it('sees the inherited history of a seeded session in its first request', async () => {
    const model = await useModel([say('first'), say('second')]);
    const parent = await runtime.sessions.create({ lineage: 'main' });
    await runtime.agents.create({ session: parent }).run('remember the codeword PLUM');
    const child = await runtime.sessions.create({
      lineage: 'main/c1',
      seed: parent.events,
      origin: 'subagent',
      delegationDepth: 1,
    });

    await runtime.agents.create({ session: child }).run('what was the codeword?');

    const body = JSON.parse(model.requests[1]?.body ?? '{}') as { messages: { content: string }[] };
    expect(body.messages.map((message) => message.content)).toEqual([
      'remember the codeword PLUM',
      'first',
      'what was the codeword?',
    ]);
    expect(model.requests[1]?.headers['x-session-lineage']).toBe('main/c1');
    await expectValidLog(child.path);
  });

  it('removes a disposed agent from the registry and closes its session', async () => {
    await useModel([say('hello')]);
    const session = await runtime.sessions.create();
    const agent = runtime.agents.create({ session });
    await agent.run('hi');
    await Promise.all([agent.dispose(), agent.dispose()]);
    expect(runtime.agents.get(agent.id)).toBeUndefined();
    expect(session.closed).toBe(true);
    await expect(agent.run('again')).rejects.toThrow(/disposed/);
  });
});

describe('agent disposal', () => {
  it('waits for a tool that was still running when the turn was aborted', async () => {
    await useModel([callTools({ id: 'stubborn', name: 'slow', args: '{"q":"x"}' })]);
    let toolFinished = false;
    runtime.tools.register({
      name: 'slow',
      description: 'Finishes a little after being told to stop.',
      parameters: { type: 'object' },
      execute: async (_args, { signal }) => {
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => setTimeout(resolve, 20)));
        toolFinished = true;
        return 'late';
      },
    });
    const session = await runtime.sessions.create();
    const agent = runtime.agents.create({ session });
    session.onAppend((event) => {
      if (event.type === 'tool/call') setImmediate(() => agent.abort('stop'));
    });
    const outcome = await agent.run('go');
    expect(outcome.reason).toBe('aborted');

    await agent.dispose();

    expect(toolFinished).toBe(true);
  });
});
