import { join } from 'node:path';
import { describe, expect, test, type TestContext } from 'vitest';
import {
  fixturePid,
  isAlive,
  startParent,
  waitForFile,
  type ParentHarness,
} from '../../test/fixtures/acp/acp-test-kit.js';
import type { SubagentRun } from '../seam/types.js';
import type { AcpProviderConfig } from './acp-provider-config.js';

async function parent(context: TestContext): Promise<ParentHarness> {
  const harness = await startParent();
  context.onTestFinished(() => harness.close());
  return harness;
}

/** Starts `fixtureName` and waits until its prompt is in flight (it streamed `partial` and marked ready). */
async function runInFlight(
  h: ParentHarness,
  fixtureName: string,
  config: Partial<AcpProviderConfig> = {},
): Promise<{ run: SubagentRun; abort: AbortController }> {
  await h.loadFixtureProvider(fixtureName, config);
  const abort = new AbortController();
  const run = await h.subagents.start('acp', { prompt: 'work', parent: h.parent, signal: abort.signal });
  await waitForFile(join(h.scratch, 'ready'));
  return { run, abort };
}

const logged = (h: ParentHarness, text: string): boolean => h.logger.lines.some((line) => line.includes(text));

describe.concurrent('acp provider after start: crashes, cancels and the dispose ladder', () => {
  test('a child that crashes mid-prompt resolves error with its partial output and exit code, never rejects', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('crash-mid-prompt.mjs');
    const run = await h.subagents.start('acp', { prompt: 'x', parent: h.parent, signal: new AbortController().signal });
    const result = await run.result;
    expect(result).toMatchObject({ output: 'partial answer', stopReason: 'error' });
    expect(result.diagnostic).toContain('the ACP child exited with code 1 during the prompt');
    expect(logged(h, 'child run failed: the ACP child exited with code 1')).toBe(true);
    await run.dispose();
    expect(isAlive(await fixturePid(h, 'crash-mid-prompt.mjs'))).toBe(false);
  });

  test('a child that exits cleanly without answering the prompt resolves error, keeping the partial output', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('exit-clean-mid-prompt.mjs');
    const run = await h.subagents.start('acp', { prompt: 'x', parent: h.parent, signal: new AbortController().signal });
    const result = await run.result;
    expect(result).toMatchObject({ output: 'partial answer', stopReason: 'error' });
    expect(result.diagnostic).toContain('the ACP child exited with code 0 during the prompt');
    await run.dispose();
    expect(isAlive(await fixturePid(h, 'exit-clean-mid-prompt.mjs'))).toBe(false);
  });

  test('aborting the request signal settles aborted with the partial output; a cooperative child then leaves on EOF', async (context) => {
    const h = await parent(context);
    // The EOF rung is what this test is about: a generous grace, so a loaded machine's slow exit
    // is still an exit on EOF (150 ms once raced the child's shutdown and reached SIGTERM).
    const { run, abort } = await runInFlight(h, 'echo-agent.mjs', {
      env: { ECHO_HANG: '1' },
      disposeEofGraceMs: 60_000,
    });
    abort.abort();
    expect(await run.result).toMatchObject({ output: 'partial', stopReason: 'aborted' });
    const pid = await fixturePid(h, 'echo-agent.mjs');
    await run.dispose();
    expect(isAlive(pid)).toBe(false);
    expect(logged(h, `child pid ${pid} exited with code 0 (after stdin EOF)`)).toBe(true);
  });

  test('cancel settles aborted at once even when the child ignores session/cancel', async (context) => {
    const h = await parent(context);
    const { run } = await runInFlight(h, 'ignores-cancel.mjs');
    run.cancel('enough');
    expect(await run.result).toEqual({ output: 'partial', stopReason: 'aborted', diagnostic: 'cancelled: enough' });
    await run.dispose();
    expect(isAlive(await fixturePid(h, 'ignores-cancel.mjs'))).toBe(false);
  });

  test('dispose escalates to SIGTERM for a child that ignores stdin EOF', async (context) => {
    const h = await parent(context);
    // The SIGTERM rung is what this test is about: a generous grace after it, so a loaded machine's
    // slow delivery of SIGTERM or of the exit is still a stop on SIGTERM (150 ms once ran out first
    // and the ladder went on to SIGKILL).
    const { run } = await runInFlight(h, 'ignores-eof.mjs', { disposeTermGraceMs: 60_000 });
    await run.dispose();
    expect(await run.result).toMatchObject({ output: 'partial', stopReason: 'aborted' });
    const pid = await fixturePid(h, 'ignores-eof.mjs');
    expect(isAlive(pid)).toBe(false);
    expect(logged(h, `child pid ${pid} and its process group stopped on SIGTERM`)).toBe(true);
  });

  test('dispose escalates to SIGKILL for a child that ignores stdin EOF and SIGTERM', async (context) => {
    const h = await parent(context);
    const { run } = await runInFlight(h, 'ignores-sigterm.mjs');
    await run.dispose();
    const pid = await fixturePid(h, 'ignores-sigterm.mjs');
    expect(isAlive(pid)).toBe(false);
    expect(logged(h, `child pid ${pid} ignored stdin EOF and SIGTERM; its process group was killed with SIGKILL`)).toBe(
      true,
    );
  });

  test('a crash after a cancel stays aborted', async (context) => {
    const h = await parent(context);
    const { run } = await runInFlight(h, 'ignores-cancel.mjs');
    run.cancel();
    process.kill(await fixturePid(h, 'ignores-cancel.mjs'), 'SIGKILL');
    await run.dispose();
    expect(await run.result).toMatchObject({ output: 'partial', stopReason: 'aborted' });
    expect(logged(h, 'child run failed')).toBe(false);
  });
});
