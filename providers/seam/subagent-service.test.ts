import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../harness/agents/agent.js';
import { nextEvent } from '../../test/support/next-event.js';
import { createProviderKit } from '../../test/support/provider-kit.js';
import { createScriptedRuntime, type ScriptedRuntime } from '../../test/support/scripted-runtime.js';
import { mockProvider } from '../mock/mock-provider.js';
import { mockScript, type MockScript } from '../mock/mock-script.js';
import type { SubagentRunEndInfo, SubagentRunInfo } from './events.js';
import type { SubagentService } from './subagent-service.js';
import { NO_START_CAPABILITIES, type StartCapability, type SubagentStartRequest } from './types.js';

let fx: ScriptedRuntime;
let service: SubagentService;
let parent: Agent;

beforeEach(async () => {
  ({ fx, service, parent } = await createProviderKit());
});
afterEach(() => fx.close());

const request = (extra: Partial<SubagentStartRequest> = {}): SubagentStartRequest => ({
  prompt: 'do the thing',
  parent,
  signal: new AbortController().signal,
  ...extra,
});

async function loadMock(
  script: MockScript,
  options: { name?: string; capabilities?: typeof NO_START_CAPABILITIES } = {},
) {
  return fx.runtime.use(mockProvider, { script, ...options });
}

function recordLifecycle(): { names: string[]; starts: SubagentRunInfo[]; ends: SubagentRunEndInfo[] } {
  const record = { names: [] as string[], starts: [] as SubagentRunInfo[], ends: [] as SubagentRunEndInfo[] };
  fx.runtime.events.on('subagent/start', (info) => void (record.names.push('start'), record.starts.push(info)));
  fx.runtime.events.on('subagent/end', (info) => void (record.names.push('end'), record.ends.push(info)));
  return record;
}

describe('the provider registry', () => {
  it('lets providers of different names coexist and announces each addition and removal once', async () => {
    const added: string[] = [];
    const removed: string[] = [];
    fx.runtime.events.on('subagent/provider-added', (provider) => void added.push(provider.name));
    fx.runtime.events.on('subagent/provider-removed', ({ name }) => void removed.push(name));
    const unloadA = await loadMock(mockScript([]), { name: 'a' });
    await loadMock(mockScript([]), { name: 'b' });
    expect(service.list()).toEqual(['a', 'b']);
    expect(service.getProvider('a')?.name).toBe('a');
    await unloadA();
    await unloadA();
    expect(service.list()).toEqual(['b']);
    expect(service.getProvider('a')).toBeUndefined();
    expect(added).toEqual(['a', 'b']);
    expect(removed).toEqual(['a']);
  });

  it('refuses a second provider under a taken name and keeps the first', async () => {
    const first = mockScript([{ kind: 'succeed', output: 'first' }]);
    await loadMock(first);
    await expect(loadMock(mockScript([]))).rejects.toMatchObject({ code: 'DUPLICATE_PROVIDER' });
    const run = await service.start('mock', request());
    expect(await run.result).toMatchObject({ output: 'first' });
    await run.dispose();
  });

  it('fails a provider plugin loudly when the subagents service is not loaded', async () => {
    const bare = await createScriptedRuntime();
    try {
      await expect(bare.runtime.use(mockProvider, { script: mockScript([]) })).rejects.toMatchObject({
        code: 'NO_SERVICE',
      });
    } finally {
      await bare.close();
    }
  });
});

describe('start refuses a bad request before the provider does any work', () => {
  it('refuses an unknown provider with NO_PROVIDER', async () => {
    await expect(service.start('nope', request())).rejects.toMatchObject({
      code: 'NO_PROVIDER',
      message: expect.stringContaining('"nope"'),
    });
  });

  const asks: Record<StartCapability, Partial<SubagentStartRequest>> = {
    outputSchema: { outputSchema: { type: 'object' } },
    maxDepth: { maxDepth: 2 },
    toolFilter: { toolFilter: { deny: ['x'] } },
    persona: { persona: 'a pirate' },
  };
  it.each(Object.keys(asks) as StartCapability[])(
    'refuses an unadvertised %s with UNSUPPORTED_CAPABILITY and never calls start',
    async (capability) => {
      const script = mockScript([{ kind: 'succeed' }]);
      await loadMock(script, { capabilities: NO_START_CAPABILITIES });
      await expect(service.start('mock', request(asks[capability]))).rejects.toMatchObject({
        code: 'UNSUPPORTED_CAPABILITY',
        message: expect.stringContaining(`"${capability}"`),
      });
      expect(script.starts).toBe(0);
    },
  );

  it('checks capabilities in a fixed order, before the request is validated', async () => {
    const script = mockScript([]);
    await loadMock(script, { capabilities: NO_START_CAPABILITIES });
    await expect(
      service.start('mock', request({ persona: 'p', toolFilter: {}, maxDepth: -1, outputSchema: { type: 'object' } })),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED_CAPABILITY',
      message: expect.stringContaining('"outputSchema"'),
    });
    await expect(service.start('mock', request({ persona: 'p', maxDepth: -1 }))).rejects.toMatchObject({
      message: expect.stringContaining('"maxDepth"'),
    });
    expect(script.starts).toBe(0);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -0, Number.MAX_SAFE_INTEGER + 1])(
    'refuses maxDepth %s with INVALID_REQUEST',
    async (maxDepth) => {
      const script = mockScript([]);
      await loadMock(script);
      await expect(service.start('mock', request({ maxDepth }))).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        message: expect.stringContaining('maxDepth'),
      });
      expect(script.starts).toBe(0);
    },
  );

  it.each([
    ['a non-object root', { type: 'string' }],
    ['a value JSON cannot hold', { type: 'object', properties: { a: { type: 'number', maximum: Number.NaN } } }],
    ['a function inside', { type: 'object', default: () => 1 }],
    ['a schema ajv cannot compile', { type: 'object', properties: { a: { type: 'no-such-type' } } }],
  ])('refuses an output schema with %s with INVALID_REQUEST', async (_what, outputSchema) => {
    const script = mockScript([]);
    await loadMock(script);
    await expect(service.start('mock', request({ outputSchema }))).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringContaining('unsupported output schema'),
    });
    expect(script.starts).toBe(0);
  });

  it.each([
    ['toolFiltr', { toolFiltr: { deny: ['bash'] } }, '"toolFiltr" (did you mean "toolFilter"?)'],
    ['toolFilter.denny', { toolFilter: { denny: ['bash'] } }, '"toolFilter.denny" (did you mean "toolFilter.deny"?)'],
    [
      'agentOptions.modle',
      { agentOptions: { modle: 'small' } },
      '"agentOptions.modle" (did you mean "agentOptions.model"?)',
    ],
  ])(
    'refuses a request with a field it does not read (%s) with INVALID_REQUEST: read as unset, the child would get every tool or the parent model',
    async (_what, extra, named) => {
      const script = mockScript([{ kind: 'succeed' }]);
      await loadMock(script);
      await expect(service.start('mock', { ...request(), ...extra } as SubagentStartRequest)).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        message: expect.stringContaining(named),
      });
      expect(script.starts).toBe(0);
    },
  );

  it('refuses a child deeper than maxDepth with DEPTH_EXCEEDED before the child exists', async () => {
    const script = mockScript([]);
    await loadMock(script);
    await expect(service.start('mock', request({ maxDepth: 0 }))).rejects.toMatchObject({
      code: 'DEPTH_EXCEEDED',
      message: expect.stringContaining('depth 1 exceeds maxDepth 0'),
    });
    expect(script.starts).toBe(0);
  });

  it('checks capabilities against those the provider registered with, whatever a provider-added listener changes', async () => {
    const script = mockScript([{ kind: 'succeed' }]);
    fx.runtime.events.on('subagent/provider-added', (provider) => {
      (provider as { capabilities: unknown }).capabilities = { ...NO_START_CAPABILITIES, persona: true };
    });
    await loadMock(script, { capabilities: NO_START_CAPABILITIES });
    expect(service.getProvider('mock')?.capabilities.persona).toBe(true);
    expect(service.capabilitiesOf('mock')).toEqual(NO_START_CAPABILITIES);
    await expect(service.start('mock', request({ persona: 'a terse reviewer' }))).rejects.toMatchObject({
      code: 'UNSUPPORTED_CAPABILITY',
    });
    expect(script.starts).toBe(0);
  });

  it('refuses a start whose parent agent is disposed with PARENT_DISPOSED, never calling the provider', async () => {
    const script = mockScript([{ kind: 'succeed' }]);
    await loadMock(script);
    await parent.dispose();
    await expect(service.start('mock', request())).rejects.toMatchObject({
      code: 'PARENT_DISPOSED',
      message: expect.stringContaining(`parent agent main (${parent.id}) is disposed`),
    });
    expect(script.starts).toBe(0);
  });
});

describe('what the provider receives', () => {
  it('gets a new request object with a run id, the child lineage and depth', async () => {
    const script = mockScript([{ kind: 'succeed' }, { kind: 'succeed' }, { kind: 'succeed' }]);
    await loadMock(script);
    const asked = request({ spawnedBy: 'call_7' });
    const runs = [
      await service.start('mock', asked),
      await service.start('mock', request()),
      await service.start('mock', request()),
    ];
    const [first, second, third] = script.requests;
    expect(first).not.toBe(asked);
    expect(asked).not.toHaveProperty('runId');
    expect(first).toMatchObject({
      lineage: 'main/call_7',
      spawnedBy: 'call_7',
      depth: 1,
      prompt: 'do the thing',
      parent,
    });
    expect(second).toMatchObject({ lineage: 'main/c1', spawnedBy: 'c1' });
    expect(third).toMatchObject({ lineage: 'main/c2', spawnedBy: 'c2' });
    expect(new Set(script.requests.map((r) => r.runId)).size).toBe(3);
    await Promise.all(runs.map((run) => run.dispose()));
  });

  it('refuses a spawnedBy that cannot name a lineage segment', async () => {
    const script = mockScript([]);
    await loadMock(script);
    await expect(service.start('mock', request({ spawnedBy: 'a/b' }))).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    expect(script.starts).toBe(0);
  });
});

describe('lifecycle events', () => {
  it('announces start only after the provider fulfils, then end when the result settles, with one run id', async () => {
    const life = recordLifecycle();
    const heardWhenProviderStarted: string[][] = [];
    await loadMock(
      mockScript(() => {
        heardWhenProviderStarted.push([...life.names]);
        return { kind: 'succeed', output: 'done', readyAfterMs: 20, afterMs: 20 };
      }),
    );
    const pending = service.start('mock', request({ spawnedBy: 'call_1' }));
    const run = await pending;
    expect(heardWhenProviderStarted).toEqual([[]]);
    expect(life.names).toEqual(['start']);
    const ended = nextEvent(fx.runtime.events, 'subagent/end');
    await run.result;
    await ended;
    expect(life.names).toEqual(['start', 'end']);
    expect(life.starts[0]).toEqual({
      runId: expect.any(String),
      provider: 'mock',
      childId: run.id,
      parentId: parent.id,
      lineage: 'main/call_1',
    });
    expect(life.ends[0]).toEqual({ ...life.starts[0], stopReason: 'completed', lastAssistantMessage: 'done' });
    await run.dispose();
  });

  it('emits start before end, once each, when the result settled before start returned', async () => {
    const life = recordLifecycle();
    const ended = nextEvent(fx.runtime.events, 'subagent/end');
    await loadMock(mockScript([{ kind: 'succeed', output: 'instant' }]));
    const run = await service.start('mock', request());
    await run.result;
    await run.dispose();
    await ended;
    expect(life.names).toEqual(['start', 'end']);
  });

  it.each([
    ['a scripted start failure', { kind: 'fail-start' } as const, 'START_FAILED'],
    ['a start aborted before ready', { kind: 'succeed', readyAfterMs: 10_000 } as const, 'ABORTED'],
  ])('emits nothing for %s, and the provider left nothing alive', async (_what, behaviour, code) => {
    const life = recordLifecycle();
    const script = mockScript([behaviour, { kind: 'succeed' }]);
    await loadMock(script);
    const controller = new AbortController();
    const pending = service.start('mock', request({ signal: controller.signal }));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code });
    expect(script.alive).toBe(0);
    // A later run's end on the same bus comes after anything the refused start could still emit.
    const later = await service.start('mock', request());
    await later.dispose();
    expect(life.starts.map((info) => info.childId)).toEqual([later.id]);
    expect(life.names).toEqual(['start', 'end']);
  });

  it('reports a rejected result as an end with stop reason error and no message', async () => {
    const life = recordLifecycle();
    await loadMock(mockScript([{ kind: 'crash', message: 'transport gone' }]));
    const run = await service.start('mock', request());
    await expect(run.result).rejects.toThrow('transport gone');
    await run.dispose();
    expect(life.ends).toEqual([expect.objectContaining({ stopReason: 'error' })]);
    expect(life.ends[0]).not.toHaveProperty('lastAssistantMessage');
  });

  it('contains a sync throw and an async rejection of listeners, and the others still run', async () => {
    const heard: string[] = [];
    fx.runtime.events.on('subagent/start', () => {
      throw new Error('sync boom');
    });
    fx.runtime.events.on('subagent/start', async () => {
      throw new Error('async boom');
    });
    fx.runtime.events.on('subagent/start', () => void heard.push('start'));
    fx.runtime.events.on('subagent/end', () => {
      throw new Error('end boom');
    });
    fx.runtime.events.on('subagent/end', () => void heard.push('end'));
    const ended = nextEvent(fx.runtime.events, 'subagent/end');
    await loadMock(mockScript([{ kind: 'succeed', output: 'fine' }]));
    const run = await service.start('mock', request());
    expect(await run.result).toMatchObject({ stopReason: 'completed', output: 'fine' });
    await run.dispose();
    await ended;
    expect(heard).toEqual(['start', 'end']);
    expect(
      fx.runtime.events
        .containedFailures()
        .map((failure) => (failure.error as Error).message)
        .sort(),
    ).toEqual(['async boom', 'end boom', 'sync boom']);
  });

  it('hands listeners a copy: mutating the end payload changes neither the caller nor later listeners', async () => {
    const seen: unknown[] = [];
    fx.runtime.events.on('subagent/end', (info) => {
      (info as { stopReason: string }).stopReason = 'hacked';
    });
    fx.runtime.events.on('subagent/end', (info) => void seen.push(info.stopReason));
    const ended = nextEvent(fx.runtime.events, 'subagent/end');
    await loadMock(mockScript([{ kind: 'succeed', output: 'kept' }]));
    const run = await service.start('mock', request());
    const result = await run.result;
    await run.dispose();
    await ended;
    expect(result).toEqual({ output: 'kept', stopReason: 'completed' });
    expect(seen).toEqual(['completed']);
  });

  it('omits lastAssistantMessage when the child produced no output', async () => {
    const life = recordLifecycle();
    const ended = nextEvent(fx.runtime.events, 'subagent/end');
    await loadMock(mockScript([{ kind: 'succeed' }]));
    const run = await service.start('mock', request());
    await run.result;
    await run.dispose();
    await ended;
    expect(life.ends[0]).not.toHaveProperty('lastAssistantMessage');
  });
});

describe('start-time options', () => {
  it('are deep copies taken at start: mutating the request afterwards changes nothing the provider sees', async () => {
    const script = mockScript([{ kind: 'succeed' }]);
    await loadMock(script);
    const toolFilter = { deny: ['shell'] as string[] };
    const outputSchema = { type: 'object', properties: { answer: { type: 'string' } } } as Record<string, unknown>;
    const agentOptions = { model: 'small' };
    const run = await service.start('mock', request({ toolFilter, outputSchema, agentOptions }));
    toolFilter.deny.length = 0;
    (outputSchema['properties'] as Record<string, unknown>)['answer'] = { type: 'number' };
    agentOptions.model = 'huge';
    const seen = script.requests[0];
    expect(seen?.toolFilter).toEqual({ deny: ['shell'] });
    expect(seen?.outputSchema).toEqual({ type: 'object', properties: { answer: { type: 'string' } } });
    expect(seen?.agentOptions).toEqual({ model: 'small' });
    expect(Object.isFrozen(seen?.toolFilter?.deny)).toBe(true);
    await run.dispose();
  });

  it('refuses an option that is not plain data with INVALID_REQUEST, before the provider is called', async () => {
    const script = mockScript([]);
    await loadMock(script);
    await expect(
      service.start('mock', request({ toolFilter: { deny: [() => 'x'] as unknown as string[] } })),
    ).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringContaining('toolFilter'),
    });
    expect(script.starts).toBe(0);
  });
});
