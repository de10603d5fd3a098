import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedRuntime, say, type ScriptedRuntime } from '../../test/support/scripted-runtime.js';
import { subagentsService, type SubagentService } from '../seam/subagent-service.js';
import { ALL_START_CAPABILITIES } from '../seam/types.js';
import { forkProvider } from '../fork/fork-provider.js';
import { spawnProvider } from './spawn-provider.js';

let fx: ScriptedRuntime;
let service: SubagentService;

beforeEach(async () => {
  fx = await createScriptedRuntime();
  await fx.runtime.use(subagentsService);
  service = fx.runtime.find('subagents') as SubagentService;
});
afterEach(() => fx.close());

describe('the spawn provider', () => {
  it('registers under its name with every start-time capability and a fresh-context child, and leaves with its plugin', async () => {
    const unload = await fx.runtime.use(spawnProvider);
    expect(service.getProvider('spawn')).toMatchObject({
      capabilities: ALL_START_CAPABILITIES,
      inheritsParentContext: false,
    });
    await unload();
    expect(service.list()).toEqual([]);
  });

  it('registers under a configured name', async () => {
    await fx.runtime.use(spawnProvider, { name: 'worker' });
    expect(service.list()).toEqual(['worker']);
  });

  it('refuses a config key it does not read (INVALID_CONFIG): a misspelt name registered the default one', async () => {
    await expect(fx.runtime.use(spawnProvider, { nmae: 'helper' } as never)).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      message: expect.stringContaining('spawn provider config: unknown option "nmae" (did you mean "name"?)'),
    });
    await expect(fx.runtime.use(forkProvider, { nmae: 'helper' } as never)).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      message: expect.stringContaining('fork provider config: unknown option "nmae"'),
    });
    expect(service.list()).toEqual([]);
  });

  it('keeps an accepted run alive when the provider is unloaded mid-run', async () => {
    const unload = await fx.runtime.use(spawnProvider);
    const parent = await fx.createAgent();
    fx.script('main/c1', say('still here'));
    const run = await service.start('spawn', { prompt: 'task', parent, signal: new AbortController().signal });
    await unload();
    expect(await run.result).toMatchObject({ output: 'still here', stopReason: 'completed' });
    await run.dispose();
    await expect(
      service.start('spawn', { prompt: 'task', parent, signal: new AbortController().signal }),
    ).rejects.toMatchObject({ code: 'NO_PROVIDER' });
  });
});
