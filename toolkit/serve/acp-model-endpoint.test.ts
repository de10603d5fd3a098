import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test, type TestContext } from 'vitest';
import { startParent, type ParentHarness } from '../../test/fixtures/acp/acp-test-kit.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { ModelEndpoint } from '../../providers/acp/acp-provider-config.js';
import { startModelServer, type ModelServer } from './start-model-server.js';

const servers: ModelServer[] = [];
let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('serve-acp-');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  await removeTempDir(dir);
});

async function serve(options: Parameters<typeof startModelServer>[0]): Promise<ModelServer> {
  const server = await startModelServer(options);
  servers.push(server);
  return server;
}

/** The third-party-style agent as the ACP child of `main`, spawned by tool call `call_m`, its model at `server`. */
async function delegate(context: TestContext, server: ModelServer): Promise<{ output: string; h: ParentHarness }> {
  const h = await startParent();
  context.onTestFinished(() => h.close());
  const modelEndpoint: ModelEndpoint = {
    url: server.url,
    baseUrlVariables: { OPENAI_BASE_URL: '/v1' },
    keyVariables: ['OPENAI_API_KEY'],
  };
  await h.loadFixtureProvider('model-agent.mjs', { modelEndpoint });
  const run = await h.subagents.start('acp', {
    prompt: 'What is six times seven?',
    parent: h.parent,
    signal: new AbortController().signal,
    spawnedBy: 'call_m',
  });
  const { output } = await run.result;
  await run.dispose();
  return { output, h };
}

test('an ACP child given the model endpoint is recorded under its own lineage, then replayed keyless while its tool writes the real file again', async (context) => {
  const upstream = await serve({ scripts: { lineages: { 'main/call_m': [{ text: 'Forty-two.' }] } }, eventDelay: 0 });
  const recorder = await serve({ record: join(dir, 'rec'), upstream: upstream.url, forwardLineage: true });
  const recorded = await delegate(context, recorder);
  expect(recorded.output).toBe('Forty-two.');
  expect(await readFile(join(recorded.h.scratch, 'answer.txt'), 'utf8')).toBe('Forty-two.');
  // The child sent its calls under <parent>/<tool-call id>, with the dummy key, never a real one.
  expect(recorder.requests('main/call_m')).toHaveLength(1);
  expect((await recorder.close()).sessions).toEqual([{ lineage: 'main/call_m', consumed: 1, total: 1 }]);

  const replayer = await serve({ recording: join(dir, 'rec') });
  const replayed = await delegate(context, replayer);
  expect(replayed.output).toBe('Forty-two.');
  expect(await readFile(join(replayed.h.scratch, 'answer.txt'), 'utf8')).toBe('Forty-two.');
  expect(await replayer.close()).toMatchObject({
    ok: true,
    sessions: [{ lineage: 'main/call_m', consumed: 1, total: 1 }],
  });
});

test('a child whose lineage has no recording is told UNRECORDED_SESSION by the endpoint, and writes nothing', async (context) => {
  const replayer = await serve({ scripts: { lineages: { 'main/call_other': [{ text: 'not yours' }] } } });
  const { output, h } = await delegate(context, replayer);
  expect(output).toBe('model call failed: 422 UNRECORDED_SESSION');
  await expect(rm(join(h.scratch, 'answer.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
});
