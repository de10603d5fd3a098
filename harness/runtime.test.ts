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
