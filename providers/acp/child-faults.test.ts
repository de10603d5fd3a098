import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test, vi, type TestContext } from 'vitest';
import { fixturePid, startParent, waitForFile, type ParentHarness } from '../../test/fixtures/acp/acp-test-kit.js';
import type { SubagentStartRequest } from '../seam/types.js';
import { isRunning } from './process-group.js';
import { MAX_OUTPUT_CHARS } from './start-acp-run.js';

async function parent(context: TestContext): Promise<ParentHarness> {
  const harness = await startParent();
  context.onTestFinished(() => harness.close());
  return harness;
}

const request = (h: ParentHarness, extra: Partial<SubagentStartRequest> = {}): SubagentStartRequest => ({
  prompt: 'x',
  parent: h.parent,
  signal: new AbortController().signal,
  ...extra,
});

async function misbehaving(h: ParentHarness, mode: string): Promise<void> {
  await h.loadFixtureProvider('misbehaves.mjs', { env: { MISBEHAVE: mode } });
}

const logged = (h: ParentHarness, text: string): boolean => h.logger.lines.some((line) => line.includes(text));

describe.concurrent('acp provider: what a child writes cannot hang the run or grow without bound', () => {
  test('5000 junk stdout lines written before the child reads stdin do not deadlock; they are counted and the first is quoted', async (context) => {
    const h = await parent(context);
    await misbehaving(h, 'junk-flood');
    const run = await h.subagents.start('acp', request(h));
    expect(await run.result).toEqual({ output: 'mine', stopReason: 'completed' });
    await run.dispose();
    expect(
      logged(
        h,
        'wrote non-protocol output to stdout (ignored and counted; log to stderr instead): log line 0: the agent is thinking',
      ),
    ).toBe(true);
    expect(logged(h, 'wrote 5000 non-protocol stdout line(s)')).toBe(true);
  });

  test('a 20 MB stderr line is quoted cut, with the size left out, in the start-up failure', async (context) => {
    const h = await parent(context);
    await misbehaving(h, 'huge-stderr');
    const error = (await h.subagents.start('acp', request(h)).catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('START_FAILED');
    expect(error.message).toMatch(
      /exited with code 5 before answering initialize; its last stderr lines: x+… \[\d+ more characters left out\]/,
    );
    expect(error.message.length).toBeLessThan(5_000);
    expect(h.logger.lines.every((line) => line.length < 5_000)).toBe(true);
  });

  test('an answer larger than the output bound is kept up to the bound, with the size left out', async (context) => {
    const h = await parent(context);
    await misbehaving(h, 'output-flood');
    const run = await h.subagents.start('acp', request(h));
    const result = await run.result;
    expect(result.stopReason).toBe('completed');
    expect(result.output.slice(0, MAX_OUTPUT_CHARS)).toBe('z'.repeat(MAX_OUTPUT_CHARS));
    expect(result.output.slice(MAX_OUTPUT_CHARS)).toBe(
      `… [${40 * 64 * 1024 + 4 - MAX_OUTPUT_CHARS} more characters left out]`,
    );
    await run.dispose();
  });

  test('a stdout line over the frame limit is reported as such, not as a broken pipe', async (context) => {
    const h = await parent(context);
    await misbehaving(h, 'huge-frame');
    const error = (await h.subagents.start('acp', request(h)).catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('START_FAILED');
    expect(error.message).toContain('the ACP child sent a stdout line longer than 33554432 bytes (the frame limit)');
    expect(error.message).not.toMatch(/EPIPE/);
  });

  test('a JSON-RPC error answering the prompt keeps its data in the diagnostic', async (context) => {
    const h = await parent(context);
    await misbehaving(h, 'rpc-error-data');
    const run = await h.subagents.start('acp', request(h));
    const result = await run.result;
    expect(result.stopReason).toBe('error');
    expect(result.diagnostic).toContain(
      'answered session/prompt with error -32603: turn 1 failed: MODEL_DOWN (data: {"code":"MODEL_DOWN","turn":1})',
    );
    await run.dispose();
  });

  test('text streamed for another session id is not part of the output', async (context) => {
    const h = await parent(context);
    await misbehaving(h, 'foreign-session');
    const run = await h.subagents.start('acp', request(h));
    expect(await run.result).toEqual({ output: 'mine', stopReason: 'completed' });
    await run.dispose();
  });

  test('stray frames (a response to no request, a batch) go to the runtime logger, never to the console', async (context) => {
    const h = await parent(context);
    const consoleError = vi.spyOn(console, 'error');
    context.onTestFinished(() => consoleError.mockRestore());
    await misbehaving(h, 'stray-frames');
    const run = await h.subagents.start('acp', request(h));
    expect(await run.result).toEqual({ output: 'mine', stopReason: 'completed' });
    await run.dispose();
    expect(logged(h, 'wrote 2 non-protocol stdout line(s)')).toBe(true);
    expect(
      consoleError.mock.calls.filter((call) => String(call[0]).includes('Got response to unknown request')),
    ).toEqual([]);
  });

  test('a script whose #! interpreter is missing is reported as that, not as "command not found"', async (context) => {
    const h = await parent(context);
    const script = join(h.scratch, 'agent.sh');
    await writeFile(script, '#!/no/such/interpreter\necho never\n');
    await chmod(script, 0o755);
    await h.loadFixtureProvider('echo-agent.mjs', { command: script, args: [] });
    const error = (await h.subagents.start('acp', request(h)).catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('START_FAILED');
    expect(error.message).toContain(
      `"${script}" exists but its interpreter "/no/such/interpreter" (its #! line) was not found`,
    );
    expect(error.message).not.toContain('not found; check `command` and PATH');
  });
});

describe.concurrent('acp provider: every phase is bounded', () => {
  test("a child silent for the request's idleTimeoutMs ends the run error, naming the phase", async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('ignores-cancel.mjs');
    const run = await h.subagents.start('acp', request(h, { idleTimeoutMs: 300 }));
    const result = await run.result;
    expect(result.stopReason).toBe('error');
    expect(result.diagnostic).toBe(
      'the ACP child sent nothing for 300 ms during the prompt (idleTimeoutMs); the run was ended',
    );
    await run.dispose();
    expect(isRunning(await fixturePid(h, 'ignores-cancel.mjs'))).toBe(false);
  });

  test('the configured idleTimeoutMs applies when the request names none', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('ignores-cancel.mjs', { idleTimeoutMs: 250 });
    const run = await h.subagents.start('acp', request(h));
    expect((await run.result).diagnostic).toContain('sent nothing for 250 ms during the prompt');
    await run.dispose();
  });

  test('a request idleTimeoutMs outside the timer range is refused INVALID_REQUEST before spawning', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('echo-agent.mjs');
    await expect(h.subagents.start('acp', request(h, { idleTimeoutMs: 0 }))).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
  });

  test('runtime.dispose() during a start waits for it; the start rejects ABORTED and its child is gone', async (context) => {
    const h = await startParent();
    await h.loadFixtureProvider('never-initializes.mjs');
    let settled = false;
    const started = h.subagents.start('acp', request(h)).finally(() => {
      settled = true;
    });
    const rejection = started.catch((e: unknown) => e);
    await waitForFile(join(h.scratch, 'ready'));
    await h.runtime.dispose();
    expect(settled).toBe(true);
    expect(await rejection).toMatchObject({ code: 'ABORTED' });
    expect(isRunning(await fixturePid(h, 'never-initializes.mjs'))).toBe(false);
    context.onTestFinished(() => h.close());
  });

  test('a provider disposed with a run still live stops that child too', async (context) => {
    const h = await startParent();
    await h.loadFixtureProvider('ignores-sigterm.mjs');
    const run = await h.subagents.start('acp', request(h));
    await waitForFile(join(h.scratch, 'ready'));
    await h.runtime.dispose();
    expect(await run.result).toMatchObject({ stopReason: 'aborted' });
    expect(isRunning(await fixturePid(h, 'ignores-sigterm.mjs'))).toBe(false);
    context.onTestFinished(() => h.close());
  });
});
