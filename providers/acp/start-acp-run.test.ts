import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, type TestContext } from 'vitest';
import {
  fixturePid,
  isAlive,
  loggedChildPid,
  startParent,
  waitForFile,
  type ParentHarness,
} from '../../test/fixtures/acp/acp-test-kit.js';

async function parent(context: TestContext): Promise<ParentHarness> {
  const harness = await startParent();
  context.onTestFinished(() => harness.close());
  return harness;
}

/** Starts a child that must fail start-up; returns the rejection and whether any lifecycle event fired. */
async function failedStart(
  h: ParentHarness,
  signal = new AbortController().signal,
): Promise<{ error: unknown; announced: boolean }> {
  let announced = false;
  h.runtime.events.on('subagent/start', () => {
    announced = true;
  });
  const error = await h.subagents.start('acp', { prompt: 'x', parent: h.parent, signal }).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  return { error, announced };
}

describe.concurrent('acp provider start-up failures: start rejects, the child is gone, no run is announced', () => {
  test('a child that exits before initialize is reported with its exit code and last stderr lines', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('crash-before-initialize.mjs');
    const { error, announced } = await failedStart(h);
    expect(error).toMatchObject({ code: 'START_FAILED' });
    expect((error as Error).message).toMatch(
      /the ACP child exited with code 3 before answering initialize.*giving up before initialize/,
    );
    expect(announced).toBe(false);
    expect(isAlive(await fixturePid(h, 'crash-before-initialize.mjs'))).toBe(false);
  });

  test('a child that dies inside session/new is reported at session/new', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('crash-during-session-new.mjs');
    const { error, announced } = await failedStart(h);
    expect(error).toMatchObject({ code: 'START_FAILED' });
    expect((error as Error).message).toContain('the ACP child exited with code 4 before answering session/new');
    expect(announced).toBe(false);
    expect(isAlive(await fixturePid(h, 'crash-during-session-new.mjs'))).toBe(false);
  });

  test('a child that never answers initialize times out and is stopped', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('never-initializes.mjs', { startupTimeoutMs: 300 });
    const { error } = await failedStart(h);
    expect(error).toMatchObject({ code: 'START_FAILED' });
    expect((error as Error).message).toContain('the ACP child did not answer initialize within 300 ms');
    expect(isAlive(loggedChildPid(h))).toBe(false);
  });

  test('a command that does not exist rejects START_FAILED naming the command', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('echo-agent.mjs', { command: 'nestcast-no-such-command', args: [] });
    const { error, announced } = await failedStart(h);
    expect(error).toMatchObject({ code: 'START_FAILED' });
    expect((error as Error).message).toContain('command "nestcast-no-such-command" not found');
    expect(announced).toBe(false);
  });

  test('a cancel during start-up rejects ABORTED after the child is stopped', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('never-initializes.mjs');
    const abort = new AbortController();
    void waitForFile(join(h.scratch, 'ready')).then(() => abort.abort());
    const { error, announced } = await failedStart(h, abort.signal);
    expect(error).toMatchObject({ code: 'ABORTED' });
    expect((error as Error).message).toContain('start-up was cancelled while waiting for initialize');
    expect(announced).toBe(false);
    expect(isAlive(await fixturePid(h, 'never-initializes.mjs'))).toBe(false);
  });

  test('an already aborted signal rejects ABORTED without spawning anything', async (context) => {
    const h = await parent(context);
    const marker = join(h.scratch, 'spawned');
    await h.loadFixtureProvider('echo-agent.mjs', {
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`],
    });
    const { error } = await failedStart(h, AbortSignal.abort());
    expect(error).toMatchObject({ code: 'ABORTED' });
    expect((error as Error).message).toContain('nothing was spawned');
    expect(existsSync(marker)).toBe(false);
  });

  test('a parent session cwd that is not a directory rejects START_FAILED before spawning', async (context) => {
    const h = await parent(context);
    const marker = join(h.scratch, 'spawned');
    await h.loadFixtureProvider('echo-agent.mjs', {
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`],
    });
    const session = await h.runtime.sessions.create({ lineage: 'elsewhere', cwd: join(h.scratch, 'missing-dir') });
    const orphan = h.runtime.agents.create({ session });
    const error = await h.subagents
      .start('acp', { prompt: 'x', parent: orphan, signal: new AbortController().signal })
      .catch((rejection: unknown) => rejection);
    expect(error).toMatchObject({ code: 'START_FAILED' });
    expect((error as Error).message).toMatch(/missing-dir.*is not an accessible directory.*configure `cwd`/);
    expect(existsSync(marker)).toBe(false);
  });
});
