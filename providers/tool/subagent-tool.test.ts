import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Agent } from '../../harness/agents/agent.js';
import { taskTools } from '../../harness/tasks/task-tools.js';
import {
  callTool,
  callTools,
  createScriptedRuntime,
  hang,
  say,
  type ScriptedRuntime,
} from '../../test/support/scripted-runtime.js';
import type { MockBehaviour } from '../mock/mock-behaviour.js';
import { mockProvider } from '../mock/mock-provider.js';
import { mockScript, type MockScript } from '../mock/mock-script.js';
import { subagentsService } from '../seam/subagent-service.js';
import { spawnProvider } from '../spawn/spawn-provider.js';
import { subagentTool } from './subagent-tool.js';
import type { SubagentToolConfig } from './subagent-tool-config.js';

let fx: ScriptedRuntime;
let parent: Agent;

beforeEach(async () => {
  fx = await createScriptedRuntime();
  await fx.runtime.use(subagentsService);
  for (const tool of taskTools(fx.runtime.tasks)) fx.runtime.tools.register(tool);
  parent = await fx.createAgent();
});
afterEach(() => fx.close());

async function withMock(
  behaviours: MockBehaviour[],
  tool: Partial<SubagentToolConfig> = {},
  provider: { inheritsParentContext?: boolean } = {},
): Promise<MockScript> {
  const script = mockScript(behaviours);
  await fx.runtime.use(mockProvider, { script, ...provider });
  await fx.runtime.use(subagentTool, { provider: 'mock', ...tool });
  return script;
}

const delegate = (id: string, args: Record<string, unknown> = {}) =>
  callTool(id, 'subagent', { description: 'look something up', prompt: 'find it', ...args });

/** The tool result the parent's model saw after its first call. */
const toolResultSeen = (call = 1) => fx.requests('main')[call]?.messages.at(-1);

const toolSpec = (name = 'subagent', call = 0) =>
  fx.requests('main')[call]?.tools?.find((tool) => tool.function.name === name)?.function;

describe('what the model sees', () => {
  it('offers only description, prompt and run_in_background, worded for a child that does not see the conversation', async () => {
    await withMock([]);
    fx.script('main', say('nothing to do'));
    await parent.run('hi');
    const spec = toolSpec();
    expect(Object.keys(spec?.parameters['properties'] as object)).toEqual([
      'description',
      'prompt',
      'run_in_background',
    ]);
    expect(spec?.description).toContain('does not see this conversation');
    expect(spec?.description).toContain('task_output');
  });

  it('omits run_in_background when the instance disables it', async () => {
    await withMock([], { enableRunInBackground: false });
    fx.script('main', say('ok'));
    await parent.run('hi');
    expect(Object.keys(toolSpec()?.parameters['properties'] as object)).toEqual(['description', 'prompt']);
    expect(toolSpec()?.description).not.toContain('task_output');
  });

  it('words the description for a provider whose child inherits the conversation', async () => {
    await withMock([], {}, { inheritsParentContext: true });
    fx.script('main', say('ok'));
    await parent.run('hi');
    expect(toolSpec()?.description).toContain('inherits this conversation');
  });
});

describe('registration follows the provider', () => {
  it('registers when the provider appears later, leaves with it, and re-derives its wording when it returns', async () => {
    await fx.runtime.use(subagentTool, { provider: 'mock' });
    expect(fx.runtime.tools.has('subagent')).toBe(false);
    const unload = await fx.runtime.use(mockProvider, { script: mockScript([]) });
    expect(fx.runtime.tools.get('subagent')?.description).toContain('does not see this conversation');
    await unload();
    expect(fx.runtime.tools.has('subagent')).toBe(false);
    await fx.runtime.use(mockProvider, { script: mockScript([]), inheritsParentContext: true });
    expect(fx.runtime.tools.get('subagent')?.description).toContain('inherits this conversation');
  });

  it('ignores providers of other names', async () => {
    await fx.runtime.use(subagentTool, { provider: 'mock' });
    await fx.runtime.use(mockProvider, { script: mockScript([]), name: 'other' });
    expect(fx.runtime.tools.has('subagent')).toBe(false);
  });

  it('lets two instances bound to different providers coexist under distinct names', async () => {
    await fx.runtime.use(mockProvider, { script: mockScript([{ kind: 'succeed', output: 'from a' }]), name: 'a' });
    await fx.runtime.use(mockProvider, { script: mockScript([{ kind: 'succeed', output: 'from b' }]), name: 'b' });
    await fx.runtime.use(subagentTool, { provider: 'a' });
    await fx.runtime.use(subagentTool, { provider: 'b', toolName: 'subagent_b' });
    fx.script(
      'main',
      callTools(
        { id: 'call_a', name: 'subagent', args: { description: 'a', prompt: 'a' } },
        { id: 'call_b', name: 'subagent_b', args: { description: 'b', prompt: 'b' } },
      ),
      say('both done'),
    );
    await parent.run('use both');
    const answers = fx
      .requests('main')[1]
      ?.messages.filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(answers).toEqual(['from a', 'from b']);
  });

  it('refuses a duplicate tool name, even while neither provider is registered', async () => {
    await fx.runtime.use(subagentTool, { provider: 'a' });
    await expect(fx.runtime.use(subagentTool, { provider: 'b' })).rejects.toMatchObject({ code: 'DUPLICATE_TOOL' });
  });

  it.each([
    ['a negative maxDepth', { maxDepth: -1 }],
    ['a fractional maxDepth', { maxDepth: 1.5 }],
    ['an empty toolFilter', { toolFilter: {} }],
    ['a missing provider', { provider: '' }],
  ])('refuses %s when the plugin loads', async (_what, config) => {
    await expect(fx.runtime.use(subagentTool, { provider: 'mock', ...config })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
    });
  });

  it.each([
    ['toolFiltr', { toolFiltr: { deny: ['bash'] } }, '"toolFiltr" (did you mean "toolFilter"?)'],
    ['maxDepht', { maxDepht: 1 }, '"maxDepht" (did you mean "maxDepth"?)'],
    ['toolFilter.alow', { toolFilter: { alow: ['read'] } }, '"toolFilter.alow" (did you mean "toolFilter.allow"?)'],
    [
      'agentOptions.maxStep',
      { agentOptions: { maxStep: 2 } },
      '"agentOptions.maxStep" (did you mean "agentOptions.maxSteps"?)',
    ],
  ])(
    'refuses a key it does not read (%s) when the plugin loads: read as unset, every child got every tool or depth 3',
    async (_what, config, named) => {
      await expect(fx.runtime.use(subagentTool, { provider: 'mock', ...config } as never)).rejects.toMatchObject({
        code: 'INVALID_CONFIG',
        message: expect.stringContaining(named),
      });
      expect(fx.runtime.tools.has('subagent')).toBe(false);
    },
  );
});

describe('foreground delegation', () => {
  it("returns the child's output and disposes the run, starting it with the call id, label and default maxDepth 3", async () => {
    const script = await withMock([{ kind: 'succeed', output: 'found it' }], {
      persona: 'terse',
      toolFilter: { deny: ['task_kill'] },
      agentOptions: { model: 'm2' },
    });
    fx.script('main', delegate('call_1'), say('thanks'));
    expect(await parent.run('go')).toMatchObject({ reason: 'completed', output: 'thanks' });
    expect(toolResultSeen()).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'found it' });
    expect(script.requests[0]).toMatchObject({
      prompt: 'find it',
      label: 'look something up',
      spawnedBy: 'call_1',
      lineage: 'main/call_1',
      maxDepth: 3,
      persona: 'terse',
      toolFilter: { deny: ['task_kill'] },
      agentOptions: { model: 'm2' },
    });
    expect(script.alive).toBe(0);
  });

  it("sends no maxDepth when it is 'provider-managed'", async () => {
    const script = await withMock([{ kind: 'succeed', output: 'x' }], { maxDepth: 'provider-managed' });
    fx.script('main', delegate('call_1'), say('ok'));
    await parent.run('go');
    expect(script.requests[0]).not.toHaveProperty('maxDepth');
  });

  it.each([
    ['aborted', 'Error: subagent run was cancelled'],
    ['error', 'Error: subagent run failed'],
    ['max-tokens', 'Error: subagent run hit its token limit before finishing'],
    ['refusal', 'Error: subagent declined the task'],
    ['paused', 'Error: subagent run ended abnormally (paused)'],
  ])(
    'turns a %s run into an error result with headline, diagnostic and partial output, and disposes it',
    async (stopReason, headline) => {
      const script = await withMock([
        { kind: 'error', stopReason, output: 'half an answer', diagnostic: 'the child stopped' },
      ]);
      fx.script('main', delegate('call_1'), say('noted'));
      await parent.run('go');
      expect(toolResultSeen()?.content).toBe(
        `${headline}\nDiagnostic: the child stopped\nPartial output before the run ended:\nhalf an answer`,
      );
      expect(script.alive).toBe(0);
    },
  );

  it('reports a rejected result and a failed start as error results, disposing what started', async () => {
    const script = await withMock([
      { kind: 'crash', message: 'transport gone' },
      { kind: 'fail-start', message: 'no room' },
    ]);
    fx.script('main', delegate('call_1'), delegate('call_2'), say('noted'));
    await parent.run('go');
    expect(fx.requests('main')[1]?.messages.at(-1)?.content).toBe('Error: subagent run failed: transport gone');
    expect(fx.requests('main')[2]?.messages.at(-1)?.content).toContain(
      'Error: the subagent could not start: mock provider "mock": no room',
    );
    expect(script.alive).toBe(0);
  });

  it('refuses a forced run_in_background when the instance disables it, without starting anything', async () => {
    const script = await withMock([], { enableRunInBackground: false });
    fx.script('main', delegate('call_1', { run_in_background: true }), say('ok'));
    await parent.run('go');
    expect(toolResultSeen()?.content).toContain('run_in_background is disabled');
    expect(script.starts).toBe(0);
  });

  it('cancels and disposes a running child when the parent turn is aborted', async () => {
    const script = await withMock([{ kind: 'hang', output: 'partial' }]);
    fx.script('main', delegate('call_1'));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    fx.runtime.events.on('subagent/start', () => started());
    const turn = parent.run('go');
    await running;
    parent.abort('user pressed stop');
    expect(await turn).toMatchObject({ reason: 'aborted' });
    // The aborted turn does not wait for the tool; the tool's finally releases the run right after.
    await vi.waitFor(() => expect(script.alive).toBe(0));
    expect(script.requests[0]?.signal.aborted).toBe(true);
  });
});

describe('background delegation', () => {
  it('returns a task id at once and the answer is collected with task_output', async () => {
    const script = await withMock([{ kind: 'succeed', output: 'background answer', afterMs: 5 }]);
    fx.script(
      'main',
      delegate('call_1', { run_in_background: true }),
      callTool('call_2', 'task_output', { id: 'subagent-1', wait: true }),
      say('got it'),
    );
    await parent.run('go');
    expect(toolResultSeen(1)?.content).toBe('started background subagent task subagent-1');
    expect(toolResultSeen(2)?.content).toBe('background answer\n[status: completed]');
    expect(fx.runtime.tasks.get('subagent-1')).toMatchObject({
      kind: 'subagent',
      label: 'look something up',
      owner: parent.id,
    });
    expect(script.alive).toBe(0);
  });

  it('task_kill stops a child whose start-up is still pending, and start is never completed', async () => {
    const script = await withMock([{ kind: 'succeed', readyAfterMs: 60_000 }]);
    fx.script(
      'main',
      delegate('call_1', { run_in_background: true }),
      callTool('call_2', 'task_kill', { id: 'subagent-1' }),
      say('stopped'),
    );
    await parent.run('go');
    expect(toolResultSeen(2)?.content).toBe('task subagent-1 stopped\n[status: killed]');
    expect(script.starts).toBe(1);
    expect(script.alive).toBe(0);
  });

  it('task_kill stops a running child', async () => {
    const script = await withMock([{ kind: 'hang', output: 'so far' }]);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    fx.runtime.events.on('subagent/start', () => started());
    fx.script('main', delegate('call_1', { run_in_background: true }), say('waiting'));
    await parent.run('go');
    await running;
    fx.script('main', callTool('call_2', 'task_kill', { id: 'subagent-1' }), say('stopped'));
    await parent.run('stop it');
    expect(toolResultSeen(3)?.content).toBe('task subagent-1 stopped\n[status: killed]');
    expect(script.alive).toBe(0);
  });

  it("the owner's teardown kills its running task", async () => {
    const script = await withMock([{ kind: 'hang' }]);
    fx.script('main', delegate('call_1', { run_in_background: true }), say('left it running'));
    await parent.run('go');
    await parent.dispose();
    expect(fx.runtime.tasks.get('subagent-1')?.status).toBe('killed');
    expect(script.alive).toBe(0);
  });

  it('a background run that fails settles the task failed with the diagnostic', async () => {
    await withMock([{ kind: 'error', diagnostic: 'model unreachable' }]);
    fx.script(
      'main',
      delegate('call_1', { run_in_background: true }),
      callTool('call_2', 'task_output', { id: 'subagent-1', wait: true }),
      say('oh'),
    );
    await parent.run('go');
    expect(toolResultSeen(2)?.content).toBe('(no output)\n[status: failed, error; diagnostic: model unreachable]');
  });
});

describe('nested delegation through real children', () => {
  beforeEach(async () => {
    await fx.runtime.use(spawnProvider);
  });

  it('a grandchild within maxDepth works and lineages follow the tool call ids', async () => {
    await fx.runtime.use(subagentTool, { provider: 'spawn', maxDepth: 2 });
    fx.script('main', delegate('call_a'), say('all done'));
    fx.script('main/call_a', delegate('call_b'), say('child relays: deep answer'));
    fx.script('main/call_a/call_b', say('deep answer'));
    expect(await parent.run('go deep')).toMatchObject({ output: 'all done' });
    expect(toolResultSeen()?.content).toBe('child relays: deep answer');
    const headers = await Promise.all(
      (await fx.runtime.sessions.list()).map(async (path) => (await fx.runtime.sessions.load(path)).header),
    );
    expect(headers.map((header) => [header.lineage, header.delegationDepth]).sort()).toEqual([
      ['main', 0],
      ['main/call_a', 1],
      ['main/call_a/call_b', 2],
    ]);
    expect(fx.runtime.agents.list()).toEqual([parent]);
  });

  it('a grandchild past maxDepth is refused before it exists and the child sees why', async () => {
    await fx.runtime.use(subagentTool, { provider: 'spawn', maxDepth: 1 });
    fx.script('main', delegate('call_a'), say('all done'));
    fx.script('main/call_a', delegate('call_b'), say('could not go deeper'));
    await parent.run('go deep');
    expect(fx.requests('main/call_a')[1]?.messages.at(-1)?.content).toContain('DEPTH_EXCEEDED');
    expect(fx.requests('main/call_a/call_b')).toEqual([]);
    expect((await fx.runtime.sessions.list()).length).toBe(2);
  });

  it('aborting the parent turn cancels a real child and leaves only the parent alive', async () => {
    await fx.runtime.use(subagentTool, { provider: 'spawn' });
    fx.script('main', delegate('call_a'));
    fx.script('main/call_a', hang('working on'));
    const childGone = new Promise<void>((resolve) =>
      fx.runtime.events.on('agent/disposed', ({ lineage }) => void (lineage === 'main/call_a' && resolve())),
    );
    const turn = parent.run('go');
    await fx.streamed('main/call_a', 'working on');
    parent.abort('stop');
    expect(await turn).toMatchObject({ reason: 'aborted' });
    // The parent's turn ends at the abort without waiting for the tool; the tool's finally disposes the child.
    await childGone;
    expect(fx.runtime.agents.list()).toEqual([parent]);
    expect(fx.runtime.sessions.live()).toEqual([parent.session]);
  });
});
