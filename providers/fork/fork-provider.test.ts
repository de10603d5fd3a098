import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../harness/agents/agent.js';
import { balancedPrefix } from '../../harness/session/balanced-prefix.js';
import { checkInvariants } from '../../harness/session/invariants.js';
import { createProviderKit } from '../../test/support/provider-kit.js';
import { callTool, say, type ScriptedRuntime } from '../../test/support/scripted-runtime.js';
import type { SubagentService } from '../seam/subagent-service.js';
import { ALL_START_CAPABILITIES } from '../seam/types.js';
import { spawnProvider } from '../spawn/spawn-provider.js';
import { subagentTool } from '../tool/subagent-tool.js';
import { forkProvider } from './fork-provider.js';

let fx: ScriptedRuntime;
let service: SubagentService;
let parent: Agent;

beforeEach(async () => {
  ({ fx, service, parent } = await createProviderKit({
    load: async (runtime) => {
      await runtime.use(forkProvider);
      await runtime.use(subagentTool, { provider: 'fork' });
    },
  }));
});
afterEach(() => fx.close());

const forkCall = (id: string) =>
  callTool(id, 'subagent', { description: 'branch off', prompt: 'now try the other approach' });

describe('the fork provider', () => {
  it('advertises every start-time capability and says its child inherits the conversation', () => {
    expect(service.getProvider('fork')).toMatchObject({
      capabilities: ALL_START_CAPABILITIES,
      inheritsParentContext: true,
    });
  });

  it('seeds the child with the completed turns only, persists seedLength, and excludes the open delegating turn', async () => {
    fx.script('main', say('first answer'), forkCall('call_f'), say('merged'));
    fx.script('main/call_f', say('branch result'));
    await parent.run('first question');
    const completed = [...parent.session.events];
    let seen: { header: unknown; events: readonly unknown[] } | undefined;
    fx.runtime.events.on('subagent/start', ({ childId }) => {
      const child = fx.runtime.agents.get(childId);
      if (child) seen = { header: child.session.header, events: [...child.session.events] };
    });
    expect(await parent.run('second question')).toMatchObject({ output: 'merged' });

    expect(seen?.header).toMatchObject({
      lineage: 'main/call_f',
      seedLength: completed.length,
      parentSession: parent.id,
      delegationDepth: 1,
    });
    expect(seen?.events.slice(0, completed.length)).toEqual(completed);
    expect(seen?.events[completed.length]).toMatchObject({
      type: 'user/message',
      data: { content: [{ text: 'now try the other approach' }] },
    });
    expect(completed).toEqual(balancedPrefix(completed));
    const childMessages = fx.requests('main/call_f')[0]?.messages.map((m) => m.content);
    expect(childMessages?.slice(1)).toEqual(['first question', 'first answer', 'now try the other approach']);
    expect(childMessages).not.toContain('second question');
    expect(fx.requests('main')[2]?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'branch result' });
  });

  it("never reports the parent's words: a child that says nothing returns empty output", async () => {
    fx.script('main', say('parent words'));
    await parent.run('q');
    fx.script('main/c1', say(''));
    const run = await service.start('fork', { prompt: 'say nothing', parent, signal: new AbortController().signal });
    expect(await run.result).toEqual({ output: '', stopReason: 'completed' });
    await run.dispose();
  });

  it('writes a child log that passes the invariant checker, seed included', async () => {
    fx.script('main', say('one'), forkCall('call_f'), say('done'));
    fx.script('main/call_f', callTool('call_x', 'no_such_tool', {}), say('branch done'));
    await parent.run('q1');
    await parent.run('q2');
    const child = (await fx.runtime.sessions.list()).filter((path) => !path.includes(parent.id));
    expect(child).toHaveLength(1);
    const log = await fx.runtime.sessions.load(child[0] as string);
    expect(log.header.seedLength).toBeGreaterThan(0);
    expect(checkInvariants(log, { finished: true })).toEqual([]);
  });

  it('behaves like spawn when the parent has no completed turn: no seed, no seedLength', async () => {
    await fx.runtime.use(spawnProvider);
    fx.script('main', forkCall('call_f'), say('ok'));
    fx.script('main/call_f', say('fresh'));
    await parent.run('only question');
    const childPath = (await fx.runtime.sessions.list()).find((path) => !path.includes(parent.id)) as string;
    const log = await fx.runtime.sessions.load(childPath);
    expect(log.header).not.toHaveProperty('seedLength');
    expect(log.events[0]).toMatchObject({ type: 'user/message' });
    expect(fx.requests('main/call_f')[0]?.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('coexists with spawn; the same parent drives both and its log holds only its own turns', async () => {
    await fx.runtime.use(spawnProvider);
    await fx.runtime.use(subagentTool, { provider: 'spawn', toolName: 'subagent_spawn' });
    expect(service.list()).toEqual(['fork', 'spawn']);
    fx.script('main', say('context'));
    await parent.run('set up');
    fx.script(
      'main',
      callTool('call_s', 'subagent_spawn', { description: 'fresh', prompt: 'fresh task' }),
      forkCall('call_f'),
      say('both back'),
    );
    fx.script('main/call_s', say('spawned answer'));
    fx.script('main/call_f', say('forked answer'));
    await parent.run('delegate twice');
    expect(fx.requests('main/call_s')[0]?.messages).toHaveLength(2);
    expect(fx.requests('main/call_f')[0]?.messages.map((m) => m.content)).toContain('context');
    expect(parent.session.events.filter((event) => event.type === 'turn/end')).toHaveLength(2);
  });
});
