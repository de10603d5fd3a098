import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../harness/agents/agent.js';
import { onFakeClock, settlesWithin } from '../../test/support/fake-clock.js';
import { createProviderKit } from '../../test/support/provider-kit.js';
import type { ScriptedRuntime } from '../../test/support/scripted-runtime.js';
import type { SubagentService } from '../seam/subagent-service.js';
import type { SubagentResult, SubagentStartRequest } from '../seam/types.js';
import { mockProvider } from './mock-provider.js';
import { mockScript } from './mock-script.js';
import type { MockBehaviour } from './mock-behaviour.js';

let fx: ScriptedRuntime;
let service: SubagentService;
let parent: Agent;

beforeEach(async () => {
  ({ fx, service, parent } = await createProviderKit());
});
afterEach(() => fx.close());

const start = (extra: Partial<SubagentStartRequest> = {}) =>
  service.start('mock', { prompt: 'p', parent, signal: new AbortController().signal, ...extra });

async function load(behaviours: MockBehaviour[] | ((request: SubagentStartRequest) => MockBehaviour)) {
  const script = mockScript(behaviours);
  const unload = await fx.runtime.use(mockProvider, { script });
  return { script, unload };
}

/** Whether `promise` settles once `act` ran and a fake clock moved `ms` on (see `onFakeClock`). */
function settledAfter(promise: Promise<unknown>, ms: number, act: () => void = () => undefined): Promise<boolean> {
  return onFakeClock(async () => {
    act();
    return settlesWithin(ms, promise);
  });
}

describe('the mock provider', () => {
  it('loads through the subagents service and leaves with its plugin', async () => {
    const { unload } = await load([]);
    expect(service.list()).toEqual(['mock']);
    await unload();
    expect(service.list()).toEqual([]);
  });

  it('succeeds after its delay with the scripted output and structured value', async () => {
    const { script } = await load([{ kind: 'succeed', output: 'hi', structured: { n: 1 }, afterMs: 5 }]);
    const run = await start();
    expect(await run.result).toEqual({ output: 'hi', structured: { n: 1 }, stopReason: 'completed' });
    expect(script.alive).toBe(1);
    await run.dispose();
    expect(script.alive).toBe(0);
  });

  it('ends with the scripted stop reason and diagnostic', async () => {
    await load([{ kind: 'error', stopReason: 'refusal', output: 'no', diagnostic: 'policy' }]);
    const run = await start();
    expect(await run.result).toEqual({ output: 'no', stopReason: 'refusal', diagnostic: 'policy' });
    await run.dispose();
  });

  it('fails start as scripted and keeps nothing alive', async () => {
    const { script } = await load([{ kind: 'fail-start', message: 'no capacity' }]);
    await expect(start()).rejects.toMatchObject({
      code: 'START_FAILED',
      message: expect.stringContaining('no capacity'),
    });
    expect(script).toMatchObject({ starts: 1, alive: 0 });
  });

  it('rejects start with ABORTED when cancelled before ready', async () => {
    const { script } = await load([{ kind: 'succeed', readyAfterMs: 60_000 }]);
    const controller = new AbortController();
    const pending = start({ signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    expect(script.alive).toBe(0);
  });

  it('hangs until cancelled, then settles aborted with its partial output', async () => {
    await load([{ kind: 'hang', output: 'partial' }]);
    const run = await start();
    expect(await settledAfter(run.result, 60_000)).toBe(false);
    run.cancel('enough');
    expect(await run.result).toEqual({ output: 'partial', stopReason: 'aborted', diagnostic: 'enough' });
    await run.dispose();
  });

  it('ignores a cancel for a while before settling aborted', async () => {
    await load([{ kind: 'ignore-cancel', forMs: 20 }]);
    const run = await start();
    expect(await settledAfter(run.result, 19, () => run.cancel())).toBe(false);
    expect(await run.result).toMatchObject({ stopReason: 'aborted' });
    await run.dispose();
  });

  it('rejects its result for a scripted infrastructure fault', async () => {
    await load([{ kind: 'crash', message: 'pipe closed' }]);
    const run = await start();
    await expect(run.result).rejects.toThrow('pipe closed');
    await run.dispose();
  });

  it('leaks on purpose: dispose resolves but the run stays alive', async () => {
    const { script } = await load([{ kind: 'leak' }]);
    const run = await start();
    await run.dispose();
    expect(script.alive).toBe(1);
    run.cancel();
    await run.result;
  });

  it('chooses a behaviour per request with a function, and reports an exhausted queue as a start failure', async () => {
    await load((request) => ({ kind: 'succeed', output: `echo: ${request.prompt}` }));
    const run = await start({ prompt: 'ping' });
    expect(await run.result).toMatchObject({ output: 'echo: ping' });
    await run.dispose();
    const exhausted = mockScript([]);
    await fx.runtime.use(mockProvider, { script: exhausted, name: 'empty' });
    await expect(
      service.start('empty', { prompt: 'p', parent, signal: new AbortController().signal }),
    ).rejects.toMatchObject({ code: 'START_FAILED' });
  });

  it('disposes idempotently and concurrently: one release, and a cancel lands as aborted', async () => {
    const { script } = await load([{ kind: 'hang' }]);
    const run = await start();
    const results: SubagentResult[] = [];
    void run.result.then((result) => results.push(result));
    await Promise.all([run.dispose(), run.dispose()]);
    await run.dispose();
    expect(script.alive).toBe(0);
    expect(results).toEqual([expect.objectContaining({ stopReason: 'aborted' })]);
  });
});

describe('a script or config the mock provider cannot play is refused, never played as something else', () => {
  it.each([
    ['an unknown kind (its run never settled)', { kind: 'succed' }, 'unknown kind "succed" (did you mean "succeed"?)'],
    [
      'a misspelt delay (it was ready at once)',
      { kind: 'succeed', readyAftrMs: 50 },
      '"readyAftrMs" (did you mean "readyAfterMs"?)',
    ],
    ['a field of another kind', { kind: 'fail-start', output: 'x' }, '(fail-start) unknown option "output"'],
    ['ignore-cancel without forMs', { kind: 'ignore-cancel' }, 'needs "forMs"'],
    ['a negative delay', { kind: 'crash', afterMs: -1 }, '"afterMs" must be a finite number'],
  ])('at mockScript: %s', (_what, behaviour, named) => {
    expect(() => mockScript([{ kind: 'succeed' }, behaviour as MockBehaviour])).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', message: expect.stringContaining(`behaviour 2: `) }),
    );
    expect(() => mockScript([behaviour as MockBehaviour])).toThrow(named);
  });

  it("at start, for a chooser's behaviour: the start rejects and nothing is left alive", async () => {
    const { script } = await load(() => ({ kind: 'hang', readyAfter: 5 }) as unknown as MockBehaviour);
    await expect(start()).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      message: expect.stringContaining(`the chooser's behaviour for start #1: (hang) unknown option "readyAfter"`),
    });
    expect(script.starts).toBe(1);
    expect(script.alive).toBe(0);
  });

  it('at load, for a config key it does not read or a missing script', async () => {
    const script = mockScript([]);
    await expect(fx.runtime.use(mockProvider, { script, nmae: 'helper' } as never)).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      message: expect.stringContaining('"nmae" (did you mean "name"?)'),
    });
    await expect(
      fx.runtime.use(mockProvider, { script, capabilities: { outputSchema: true, toolFiltr: true } } as never),
    ).rejects.toMatchObject({ message: expect.stringContaining('"capabilities.toolFiltr"') });
    await expect(fx.runtime.use(mockProvider, {} as never)).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      message: expect.stringContaining('"script" must be'),
    });
    expect(service.list()).toEqual([]);
  });
});
