import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../harness/agents/agent.js';
import type { ToolDefinition } from '../../harness/tools/types.js';
import { createProviderKit } from '../../test/support/provider-kit.js';
import { callTool, hang, httpError, say, type ScriptedRuntime } from '../../test/support/scripted-runtime.js';
import type { SubagentService } from '../seam/subagent-service.js';
import type { SubagentStartRequest } from '../seam/types.js';
import { spawnProvider } from '../spawn/spawn-provider.js';
import { STRUCTURED_OUTPUT_INSTRUCTION } from './child-system-prompt.js';

let fx: ScriptedRuntime;
let service: SubagentService;
let parent: Agent;

beforeEach(async () => {
  ({ fx, service, parent } = await createProviderKit({
    load: (runtime) => runtime.use(spawnProvider),
    parent: { model: 'parent-model' },
  }));
});
afterEach(() => fx.close());

const start = (extra: Partial<SubagentStartRequest> = {}) =>
  service.start('spawn', { prompt: 'child task', parent, signal: new AbortController().signal, ...extra });

function registerTool(name: string, execute: ToolDefinition<Record<string, unknown>>['execute']): void {
  fx.runtime.tools.register<Record<string, unknown>>({
    name,
    description: `the ${name} tool`,
    parameters: { type: 'object' },
    execute,
  });
}

describe('a child run', () => {
  it('is ready when start resolves, answers its prompt, and is gone after dispose', async () => {
    fx.script('main/c1', say('child answer'));
    const run = await start();
    const child = fx.runtime.agents.get(run.id);
    expect(child?.session.header).toMatchObject({
      lineage: 'main/c1',
      parentSession: parent.id,
      spawnedBy: 'c1',
      origin: 'subagent',
      delegationDepth: 1,
      cwd: parent.session.header.cwd,
    });
    expect(child?.session.header).not.toHaveProperty('seedLength');
    expect(await run.result).toEqual({ output: 'child answer', stopReason: 'completed' });
    await run.dispose();
    expect(fx.runtime.agents.get(run.id)).toBeUndefined();
    expect(child?.session.closed).toBe(true);
    await run.dispose();
  });

  it("runs on the parent's model route unless the request overrides it", async () => {
    fx.script('main/c1', say('a'));
    fx.script('main/c2', say('b'));
    const inherited = await start();
    await inherited.result;
    const overridden = await start({ agentOptions: { model: 'child-model', maxTokens: 77 } });
    await overridden.result;
    await Promise.all([inherited.dispose(), overridden.dispose()]);
    expect(fx.requests('main/c1')[0]).toMatchObject({ model: 'parent-model' });
    expect(fx.requests('main/c2')[0]).toMatchObject({ model: 'child-model', max_tokens: 77 });
  });

  it('sees its own system prompt and prompt, not the parent conversation', async () => {
    fx.script('main', say('parent answer'));
    await parent.run('parent question');
    fx.script('main/c1', say('ok'));
    const run = await start();
    await run.result;
    await run.dispose();
    const messages = fx.requests('main/c1')[0]?.messages;
    expect(messages?.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages?.[1]).toMatchObject({ content: 'child task' });
  });
});

describe('cancellation', () => {
  it('cancel before ready rejects start with ABORTED and leaves no agent, session or file', async () => {
    const controller = new AbortController();
    const files = await fx.runtime.sessions.list();
    const pending = start({ signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    expect(fx.runtime.agents.list()).toEqual([parent]);
    expect(fx.runtime.sessions.live()).toEqual([parent.session]);
    expect(await fx.runtime.sessions.list()).toEqual(files);
  });

  it('an already aborted signal creates nothing', async () => {
    await expect(start({ signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(fx.runtime.agents.list()).toEqual([parent]);
    expect(fx.requests('main/c1')).toEqual([]);
  });

  it('cancel after ready settles aborted and keeps the partial output', async () => {
    fx.script('main/c1', hang('partial answer'));
    const controller = new AbortController();
    const run = await start({ signal: controller.signal });
    await fx.streamed('main/c1', 'partial answer');
    controller.abort('enough');
    expect(await run.result).toMatchObject({ output: 'partial answer', stopReason: 'aborted' });
    await run.dispose();
  });

  it('run.cancel settles aborted the same way', async () => {
    fx.script('main/c1', hang('half'));
    const run = await start();
    await fx.streamed('main/c1', 'half');
    run.cancel();
    expect(await run.result).toMatchObject({ output: 'half', stopReason: 'aborted' });
    await run.dispose();
  });

  it('dispose of a running child, called twice at once, aborts it and resolves once nothing is alive', async () => {
    fx.script('main/c1', hang('working'));
    const run = await start();
    const child = fx.runtime.agents.get(run.id);
    await fx.streamed('main/c1', 'working');
    await Promise.all([run.dispose(), run.dispose()]);
    expect(fx.runtime.agents.get(run.id)).toBeUndefined();
    expect(child?.session.closed).toBe(true);
    expect(await run.result).toMatchObject({ stopReason: 'aborted' });
  });
});

describe('stop reasons', () => {
  it.each([
    ['max-tokens', say('cut sho', { finish: 'length' }), 'max-tokens', 'cut sho'],
    ['refusal', say('no', { finish: 'content_filter' }), 'refusal', 'no'],
    ['error', httpError(400, 'bad request body'), 'error', ''],
  ])('maps a child turn that ended %s, saying why in one line', async (_what, reply, stopReason, output) => {
    fx.script('main/c1', reply);
    const run = await start();
    const result = await run.result;
    await run.dispose();
    expect(result).toMatchObject({ stopReason, output });
    expect(result.diagnostic).toMatch(/^[^\n]+$/);
  });

  it('gives a model failure a one-line diagnostic', async () => {
    fx.script('main/c1', httpError(400, 'bad request body'));
    const run = await start();
    const result = await run.result;
    await run.dispose();
    expect(result.diagnostic).toMatch(/BAD_REQUEST/);
    expect(result.diagnostic).not.toContain('\n');
  });

  it('maps a turn that used all its steps to error with a diagnostic', async () => {
    registerTool('echo', () => 'echoed');
    fx.script('main/c1', callTool('call_e', 'echo', {}));
    const run = await start({ agentOptions: { maxSteps: 1 } });
    const result = await run.result;
    await run.dispose();
    expect(result).toMatchObject({ stopReason: 'error', diagnostic: expect.stringContaining('maxSteps') });
  });
});

describe('start-time capabilities', () => {
  it('puts the persona in the child system prompt', async () => {
    fx.script('main/c1', say('arr'));
    const run = await start({ persona: 'You speak like a ship captain.' });
    await run.result;
    await run.dispose();
    const system = fx.requests('main/c1')[0]?.messages[0];
    expect(system).toMatchObject({
      role: 'system',
      content: expect.stringContaining('You speak like a ship captain.'),
    });
  });

  it('holds the tool filter even when the child model names a denied tool', async () => {
    let secretRan = false;
    registerTool('echo', () => 'echoed');
    registerTool('secret', () => {
      secretRan = true;
      return 'leaked';
    });
    fx.script('main/c1', callTool('call_s', 'secret', {}), say('could not'));
    const run = await start({ toolFilter: { deny: ['secret'] } });
    const child = fx.runtime.agents.get(run.id);
    await run.result;
    const denied = child?.session.events.find((event) => event.type === 'tool/result');
    await run.dispose();
    expect(fx.requests('main/c1')[0]?.tools?.map((tool) => tool.function.name)).toEqual(['echo']);
    expect(secretRan).toBe(false);
    expect(denied?.data).toMatchObject({ isError: true, output: expect.stringContaining('TOOL_DENIED') });
  });

  const schema = {
    type: 'object',
    properties: { answer: { type: 'number' } },
    required: ['answer'],
    additionalProperties: false,
  };

  it('returns structured output for a capture that validates, with the capture tool and instruction in the request', async () => {
    fx.script('main/c1', callTool('call_so', 'structured_output', { answer: 42 }), say('reported'));
    const run = await start({ outputSchema: schema });
    const result = await run.result;
    await run.dispose();
    expect(result).toEqual({ output: 'reported', structured: { answer: 42 }, stopReason: 'completed' });
    const request = fx.requests('main/c1')[0];
    expect(request?.messages[0]?.content).toContain(STRUCTURED_OUTPUT_INSTRUCTION);
    expect(request?.tools?.find((tool) => tool.function.name === 'structured_output')?.function.parameters).toEqual(
      schema,
    );
  });

  it('ends with error and no structured value when the only capture was invalid', async () => {
    fx.script('main/c1', callTool('call_so', 'structured_output', { answer: 'many' }), say('I think I am done'));
    const run = await start({ outputSchema: schema });
    const result = await run.result;
    await run.dispose();
    expect(result).toMatchObject({ stopReason: 'error', diagnostic: expect.stringContaining('structured_output') });
    expect(result).not.toHaveProperty('structured');
    expect(fx.requests('main/c1')[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: expect.stringContaining('INVALID_TOOL_ARGS'),
    });
  });

  it('lets a child retry an invalid capture within its turn', async () => {
    fx.script(
      'main/c1',
      callTool('call_1', 'structured_output', { answer: 'x' }),
      callTool('call_2', 'structured_output', { answer: 7 }),
      say('done'),
    );
    const run = await start({ outputSchema: schema });
    const result = await run.result;
    await run.dispose();
    expect(result).toMatchObject({ stopReason: 'completed', structured: { answer: 7 } });
  });
});

describe('runtime capabilities', () => {
  it('sendMessage steers a running child: the message joins its next model call and its log', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    registerTool('wait_for_go', async () => {
      entered();
      await gate;
      return 'go';
    });
    fx.script('main/c1', callTool('call_w', 'wait_for_go', {}), say('steered answer'));
    const run = await start();
    await inside;
    run.sendMessage?.('also mention the weather');
    release();
    expect(await run.result).toMatchObject({ output: 'steered answer', stopReason: 'completed' });
    await run.dispose();
    expect(fx.requests('main/c1')[1]?.messages.at(-1)).toEqual({ role: 'user', content: 'also mention the weather' });
  });

  it('resume starts a follow-up turn on the same session as a new run', async () => {
    fx.script('main/c1', say('first'), say('second'));
    const run = await start();
    expect(await run.result).toMatchObject({ output: 'first' });
    const next = await run.resume!('and then?', new AbortController().signal);
    expect(next.id).toBe(run.id);
    expect(await next.result).toEqual({ output: 'second', stopReason: 'completed' });
    await run.dispose();
    expect(fx.runtime.agents.get(run.id)).toBeDefined();
    await next.dispose();
    expect(fx.runtime.agents.get(run.id)).toBeUndefined();
    expect(fx.requests('main/c1')[1]?.messages.map((m) => m.content)).toEqual([
      expect.any(String),
      'child task',
      'first',
      'and then?',
    ]);
  });

  it('refuses to resume a disposed run', async () => {
    fx.script('main/c1', say('first'));
    const run = await start();
    await run.result;
    await run.dispose();
    await expect(run.resume!('more', new AbortController().signal)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});

describe('depth', () => {
  it('persists the depth in the header and refuses a grandchild past maxDepth while one within it works', async () => {
    fx.script('main/c1', hang());
    fx.script('main/c1/c1', say('grandchild answer'));
    const run = await start();
    const child = fx.runtime.agents.get(run.id) as Agent;
    await expect(
      service.start('spawn', { prompt: 'deeper', parent: child, signal: new AbortController().signal, maxDepth: 1 }),
    ).rejects.toMatchObject({
      code: 'DEPTH_EXCEEDED',
    });
    const grandchild = await service.start('spawn', {
      prompt: 'deeper',
      parent: child,
      signal: new AbortController().signal,
      maxDepth: 2,
    });
    expect(fx.runtime.agents.get(grandchild.id)?.session.header).toMatchObject({
      lineage: 'main/c1/c1',
      delegationDepth: 2,
      parentSession: child.id,
    });
    expect(await grandchild.result).toMatchObject({ output: 'grandchild answer' });
    await grandchild.dispose();
    await run.dispose();
    expect(existsSync(child.session.path)).toBe(true);
  });
});

describe('promises the seam keeps at its edges', () => {
  /** A model whose first call of `lineage` streams `text` and then waits for `release` before finishing; later calls say `next`. */
  function gatedModel(text: string, next: string) {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let streamed!: () => void;
    const midCall = new Promise<void>((resolve) => (streamed = resolve));
    const requests: unknown[][] = [];
    fx.runtime.llm.register({
      name: 'gated',
      async *stream(request) {
        requests.push(request.messages.map((message) => message.content));
        if (requests.length > 1) {
          yield { type: 'text-delta', text: next };
          yield { type: 'finish', reason: 'stop' };
          return;
        }
        yield { type: 'text-delta', text };
        streamed();
        await gate;
        yield { type: 'finish', reason: 'stop' };
      },
    });
    return { release, midCall, requests };
  }

  it('delivers steering sent during the final model call in one more call of the same turn', async () => {
    const model = gatedModel('first answer', 'answer with the weather');
    const run = await start({ agentOptions: { adapter: 'gated' } });
    await model.midCall;
    run.sendMessage?.('also mention the weather');
    model.release();
    expect(await run.result).toEqual({ output: 'answer with the weather', stopReason: 'completed' });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.at(-1)).toBe('also mention the weather');
    await run.dispose();
  });

  it('refuses steering, typed, once the turn has ended', async () => {
    fx.script('main/c1', say('done'));
    const run = await start();
    await run.result;
    expect(() => run.sendMessage?.('too late')).toThrow(expect.objectContaining({ code: 'AGENT_BUSY' }));
    await run.dispose();
  });

  it('refuses a second concurrent resume with BUSY: one follow-up run owns the child', async () => {
    fx.script('main/c1', say('first'), say('second'));
    const run = await start();
    const first = run.resume!('one', new AbortController().signal);
    const second = run.resume!('two', new AbortController().signal);
    await expect(second).rejects.toMatchObject({ code: 'BUSY' });
    const next = await first;
    expect(await next.result).toMatchObject({ output: 'second' });
    await expect(run.resume!('three', new AbortController().signal)).rejects.toMatchObject({ code: 'BUSY' });
    await run.dispose();
    await next.dispose();
    expect(fx.runtime.agents.get(run.id)).toBeUndefined();
  });

  it('announces each run from resume with its own start and end', async () => {
    const heard: { event: string; runId: string; lineage: string }[] = [];
    fx.runtime.events.on(
      'subagent/start',
      (info) => void heard.push({ event: 'start', runId: info.runId, lineage: info.lineage }),
    );
    fx.runtime.events.on(
      'subagent/end',
      (info) => void heard.push({ event: 'end', runId: info.runId, lineage: info.lineage }),
    );
    const bothEnded = new Promise<void>((resolve) =>
      fx.runtime.events.on(
        'subagent/end',
        () => void (heard.filter((h) => h.event === 'end').length === 2 && resolve()),
      ),
    );
    fx.script('main/c1', say('first'), say('second'));
    const run = await start();
    await run.result;
    const next = await run.resume!('more', new AbortController().signal);
    await next.result;
    await next.dispose();
    await run.dispose();
    await bothEnded;
    expect(heard.map((h) => h.event)).toEqual(['start', 'end', 'start', 'end']);
    expect(new Set(heard.map((h) => h.lineage))).toEqual(new Set(['main/c1']));
    expect(heard[0]?.runId).toBe(heard[1]?.runId);
    expect(heard[2]?.runId).toBe(heard[3]?.runId);
    expect(heard[0]?.runId).not.toBe(heard[2]?.runId);
  });

  it('leaves no live child when the parent is disposed while start is pending', async () => {
    const pending = start();
    const teardown = parent.dispose();
    await expect(pending).rejects.toMatchObject({
      code: 'PARENT_DISPOSED',
      message: expect.stringContaining('disposed during start-up'),
    });
    await teardown;
    expect(fx.runtime.agents.list()).toEqual([]);
    expect(fx.runtime.sessions.live().filter((session) => session.header.lineage !== 'main')).toEqual([]);
  });

  it('refuses a child whose depth would not be a safe integer', async () => {
    const session = await fx.runtime.sessions.create({
      lineage: 'deep',
      cwd: fx.sessionsRoot,
      delegationDepth: Number.MAX_SAFE_INTEGER,
    });
    const deep = fx.runtime.agents.create({ session });
    await expect(
      service.start('spawn', { prompt: 'x', parent: deep, signal: new AbortController().signal }),
    ).rejects.toMatchObject({ code: 'DEPTH_EXCEEDED' });
    expect(
      fx.runtime.agents
        .list()
        .map((agent) => agent.lineage)
        .sort(),
    ).toEqual(['deep', 'main']);
  });
});
