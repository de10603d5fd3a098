import { expect, test, vi, type TestContext } from 'vitest';
import { startParent, type ParentHarness } from '../../test/fixtures/acp/acp-test-kit.js';

async function parent(context: TestContext): Promise<ParentHarness> {
  const harness = await startParent();
  context.onTestFinished(() => harness.close());
  return harness;
}

/** Runs `invalid-update-agent.mjs` once, with INVALID_KIND, watching what reaches stderr. */
async function runInvalidUpdateAgent(context: TestContext, kind: string) {
  const h = await parent(context);
  const stderr = vi.spyOn(console, 'error');
  context.onTestFinished(() => stderr.mockRestore());
  await h.loadFixtureProvider('invalid-update-agent.mjs', { env: { INVALID_KIND: kind } });
  const run = await h.subagents.start('acp', { prompt: 'go', parent: h.parent, signal: new AbortController().signal });
  const result = await run.result;
  await run.dispose();
  return { result, logged: h.logger.lines, printed: stderr.mock.calls.map((call) => call.map(String).join(' ')) };
}

test('a session/update the ACP schema refuses is named on the run (method, tag, the schema error, the raw params, the child), not only printed to stderr', async (context) => {
  const { result, logged, printed } = await runInvalidUpdateAgent(context, 'tool_call_update');
  // A tool update is never part of the output: the answer stands, with the diagnostic beside it.
  expect(result.stopReason).toBe('completed');
  expect(result.output).toBe('done');
  expect(result.diagnostic).toContain(`the ACP child ${process.execPath} sent 1 session/update`);
  expect(result.diagnostic).toContain('session/update');
  expect(result.diagnostic).toContain('tool_call_update (update: Invalid input)');
  expect(result.diagnostic).toContain('"toolCallId":42');
  expect(logged.some((line) => line.includes('the ACP schema refuses'))).toBe(true);
  expect(printed.filter((line) => line.includes('Error handling notification'))).toEqual([]);
});

test('a refused agent_message_chunk may have been the answer: the run fails, naming it', async (context) => {
  const { result } = await runInvalidUpdateAgent(context, 'agent_message_chunk');
  expect(result.stopReason).toBe('error');
  expect(result.output).toBe('done');
  expect(result.diagnostic).toContain('agent_message_chunk (');
  expect(result.diagnostic).toContain('"text":"lost words"');
});
