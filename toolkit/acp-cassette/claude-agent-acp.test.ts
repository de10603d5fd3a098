import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { startParent } from '../../test/fixtures/acp/acp-test-kit.js';
import { loadAcpCassette } from './load-acp-cassette.js';
import { ProtocolReplay } from './replay-channel.js';

// Recorded from the real @zed-industries/claude-agent-acp by test/fixtures/acp/record-claude-agent-acp.ts.
const RECORDING = fileURLToPath(new URL('../../test/fixtures/acp/claude-agent-acp', import.meta.url));
const HINT = 'npx tsx test/fixtures/acp/record-claude-agent-acp.ts';

test('a real third-party agent (claude-agent-acp) recorded at the protocol level replays its start-up and cancel keyless, without its command', async (context) => {
  const exchanges = await loadAcpCassette(RECORDING, HINT);
  expect([...exchanges.keys()]).toEqual(['main/c1']);
  const player = new ProtocolReplay(exchanges, { recordHint: HINT, location: RECORDING });
  const h = await startParent();
  context.onTestFinished(() => h.close());
  await h.loadFixtureProvider('echo-agent.mjs', {
    command: join(h.scratch, 'claude-agent-acp-not-installed'),
    args: [],
    channel: player.channel,
  });
  const run = await h.subagents.start('acp', {
    prompt: 'Say hello.',
    parent: h.parent,
    signal: new AbortController().signal,
  });
  run.cancel('recorded: cancel right after the prompt');
  expect(await run.result).toEqual({
    output: '',
    stopReason: 'aborted',
    diagnostic: 'cancelled: recorded: cancel right after the prompt',
  });
  await run.dispose();
  expect(player.failures()).toEqual([]);
});
