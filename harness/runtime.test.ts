import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../test/support/temp-dir.js';
import { createMemoryLogger } from './runtime/logger.js';
import { Runtime, type Plugin } from './runtime.js';

let root: string;
let runtime: Runtime;

beforeEach(async () => {
  root = await makeTempDir('runtime-');
  runtime = new Runtime({ sessionsRoot: root, logger: createMemoryLogger() });
});

afterEach(async () => {
  await runtime.dispose();
  await removeTempDir(root);
});

const greeter: Plugin<{ name: string }> = (scope, config) => {
  scope.add(
    scope.runtime.tools.register({
      name: `greet_${config.name}`,
      description: 'Greets.',
      parameters: { type: 'object' },
      execute: () => `hello from ${config.name}`,
    }),
  );
  scope.on('agent/created', () => undefined);
};

describe('Runtime options', () => {
  it('refuses an option it does not read, naming the one meant: a misspelt beforeWrite would write session files no scan saw', () => {
    expect(() => new Runtime({ sessionsRoot: root, beforeWirte: () => undefined } as never)).toThrow(
      expect.objectContaining({
        code: 'INVALID_RUNTIME_OPTIONS',
        message:
          'new Runtime: unknown option "beforeWirte" (did you mean "beforeWrite"?); the options are sessionsRoot, logger, beforeWrite, durableSessions.',
      }),
    );
  });
});

describe('agent options', () => {
  it('agents.create refuses an option it does not read: a misspelt toolRestriction gave the agent every tool', async () => {
    const session = await runtime.sessions.create();
    expect(() => runtime.agents.create({ session, toolRestrction: { deny: ['bash'] } } as never)).toThrow(
      expect.objectContaining({
        code: 'INVALID_AGENT_OPTIONS',
        message: expect.stringContaining('"toolRestrction" (did you mean "toolRestriction"?)'),
      }),
    );
    expect(() => runtime.agents.create({ session, toolRestriction: { dny: ['bash'] } } as never)).toThrow(
      '"toolRestriction.dny" (did you mean "toolRestriction.deny"?)',
    );
    expect(runtime.agents.list()).toEqual([]);
    await session.close();
  });

  it('run refuses an option it does not read: a misspelt signal started a turn nothing could abort', async () => {
    const session = await runtime.sessions.create();
    const agent = runtime.agents.create({ session });
    await expect(agent.run('hi', { signl: new AbortController().signal } as never)).rejects.toMatchObject({
      code: 'INVALID_AGENT_OPTIONS',
      message: expect.stringContaining('"signl" (did you mean "signal"?)'),
    });
    await agent.dispose();
  });
});

describe('Runtime plugins', () => {
  it('removes everything a plugin registered when it is unloaded', async () => {
    const unload = await runtime.use(greeter, { name: 'a' });
    expect(runtime.tools.names()).toEqual(['greet_a']);
    expect(runtime.events.listenerCount('agent/created')).toBe(1);
    await unload();
    expect(runtime.tools.names()).toEqual([]);
    expect(runtime.events.listenerCount('agent/created')).toBe(0);
  });

  it('runs the disposer a plugin returns when it is unloaded', async () => {
    const ran: string[] = [];
    const unload = await runtime.use(() => () => void ran.push('bye'));
    await unload();
    await unload();
    expect(ran).toEqual(['bye']);
  });

  it('rolls back what a plugin registered before it threw', async () => {
    await expect(
      runtime.use((scope) => {
        scope.add(
          scope.runtime.tools.register({
            name: 'half',
            description: 'x',
            parameters: { type: 'object' },
            execute: () => '',
          }),
        );
        throw new Error('setup failed');
      }),
    ).rejects.toThrow('setup failed');
    expect(runtime.tools.names()).toEqual([]);
  });

  it('refuses a second service under a taken name', () => {
    const remove = runtime.provide('example' as never, {} as never);
    expect(() => runtime.provide('example' as never, {} as never)).toThrow(/already provided/);
    remove();
    expect(runtime.find('example' as never)).toBeUndefined();
  });

  it('unloads every plugin when the runtime is disposed', async () => {
    await runtime.use(greeter, { name: 'b' });
    await runtime.dispose();
    expect(runtime.tools.names()).toEqual([]);
    await expect(runtime.use(greeter, { name: 'c' })).rejects.toThrow(/disposed/);
  });
});
