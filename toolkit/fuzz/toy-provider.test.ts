import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResolvedStartRequest } from '../../providers/seam/types.js';
import { ToyChildren, ToyRun, type ToyContext } from './toy-provider.js';

/** A toy child that completes, with its scheduler and what it heard. */
function toyChild(): { run: ToyRun; scheduler: fc.Scheduler; heard: string[] } {
  const [scheduler] = fc.sample(fc.scheduler(), { numRuns: 1, seed: 1 });
  if (scheduler === undefined) throw new Error('fc.sample drew no scheduler');
  const heard: string[] = [];
  const ctx: ToyContext = {
    scheduler,
    outcomeOf: () => 'complete',
    streamed: () => undefined,
    steered: (_lineage, text) => void heard.push(text),
    children: new ToyChildren(),
  };
  const request = { lineage: 'main/r0-complete', prompt: 'go', signal: new AbortController().signal };
  return { run: new ToyRun('toy-1', request as ResolvedStartRequest, 'complete', ctx), scheduler, heard };
}

// The toy is the correct provider every mutant is made from: a promise it breaks is a false alarm
// in every run of the mutation set.
describe('the toy provider', () => {
  it('hears, in the follow-up from resume, steering its cut-short turn never heard', async () => {
    const { run, scheduler, heard } = toyChild();
    run.sendMessage('also check the south face');
    run.cancel();
    expect(await run.result).toMatchObject({ stopReason: 'aborted' });
    const followUp = await run.resume('go on', new AbortController().signal);
    await scheduler.waitAll();
    expect(await followUp.result).toMatchObject({ stopReason: 'completed' });
    expect(heard).toEqual(['also check the south face']);
    await followUp.dispose();
  });

  it('hears steering once: a follow-up does not hear again what the first turn heard', async () => {
    const { run, scheduler, heard } = toyChild();
    run.sendMessage('be brief');
    await scheduler.waitAll();
    expect(await run.result).toMatchObject({ stopReason: 'completed' });
    const followUp = await run.resume('one more thing', new AbortController().signal);
    await scheduler.waitAll();
    await followUp.result;
    expect(heard).toEqual(['be brief']);
    await followUp.dispose();
  });
});
