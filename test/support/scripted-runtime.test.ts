import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedRuntime, hang, say } from './scripted-runtime.js';

describe('the scripted runtime fixture', () => {
  it('answers each lineage from its own script and records what the model received', async () => {
    const fx = await createScriptedRuntime({ main: [say('hello there')] });
    const agent = await fx.createAgent({ system: 'be brief' });
    const outcome = await agent.run('hi');
    expect(outcome).toMatchObject({ reason: 'completed', output: 'hello there' });
    expect(fx.requests('main')[0]?.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
    ]);
    await fx.close();
  });

  it('streamed waits for text of the current call, and the agent has it when the wait ends', async () => {
    const fx = await createScriptedRuntime({ main: [say('first answer'), hang('second, partial')] });
    const agent = await fx.createAgent();
    await agent.run('one');
    await fx.streamed('main', 'first answer');
    const turn = agent.run('two');
    await fx.streamed('main', 'second, partial');
    const stale = fx.streamed('main', 'first answer').then(() => 'resolved');
    expect(await Promise.race([stale, new Promise((resolve) => setImmediate(() => resolve('pending')))])).toBe(
      'pending',
    );
    agent.abort('enough');
    expect(await turn).toMatchObject({ reason: 'aborted', output: 'second, partial' });
    await fx.close();
  });

  it('fails teardown when a session log under its root breaks an invariant', async () => {
    const fx = await createScriptedRuntime();
    const header = {
      type: 'session',
      version: 1,
      id: 'bad',
      createdAt: 1,
      cwd: '/',
      lineage: 'main',
      origin: 'user',
      delegationDepth: 0,
    };
    const openTurn = { seq: 0, time: 1, type: 'turn/start', data: { turn: 1 } };
    await writeFile(join(fx.sessionsRoot, 'bad.jsonl'), `${JSON.stringify(header)}\n${JSON.stringify(openTurn)}\n`);
    await expect(fx.close()).rejects.toThrow(/finished-closed/);
  });

  it('fails teardown when the model was called without a scripted reply', async () => {
    const fx = await createScriptedRuntime();
    const agent = await fx.createAgent();
    expect(await agent.run('hi')).toMatchObject({ reason: 'error' });
    await expect(fx.close()).rejects.toThrow(/main call #1/);
  });

  it('fails teardown when a session called past its script, and refuses replies scripted after that', async () => {
    const fx = await createScriptedRuntime({ main: [say('only')] });
    const agent = await fx.createAgent();
    await agent.run('one');
    expect(await agent.run('two')).toMatchObject({ reason: 'error' });
    expect(() => fx.script('main', say('too late'))).toThrow(/already refused/);
    await expect(fx.close()).rejects.toThrow(/main call #2/);
  });
});
