import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test, type TestContext } from 'vitest';
import { startParent, type ParentHarness } from '../../test/fixtures/acp/acp-test-kit.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { AcpProviderConfig } from '../../providers/acp/acp-provider-config.js';
import type { SubagentResult } from '../../providers/seam/types.js';
import { startModelServer } from '../model-server/model-server.js';
import type { ReplayTiming } from '../replay/replay-timing.js';
import { loadAcpCassette } from './load-acp-cassette.js';
import { ProtocolRecorder } from './protocol-recorder.js';
import { ProtocolReplay } from './replay-channel.js';
import { writeAcpCassette } from './write-acp-cassette.js';

const PY_AGENT = fileURLToPath(new URL('../../scenarios/fixtures/py-acp-agent.py', import.meta.url));
const HINT = 'nestcast record <scenario>';

interface Fixture {
  readonly dir: string;
  /** A private copy of the Python agent, deleted before replay so nothing could start it. */
  readonly agent: string;
}

async function fixture(context: TestContext): Promise<Fixture> {
  const dir = await makeTempDir('acp-cassette-');
  context.onTestFinished(() => removeTempDir(dir));
  const agent = join(dir, 'py-acp-agent.py');
  await copyFile(PY_AGENT, agent);
  return { dir, agent };
}

async function runOnce(
  config: Partial<AcpProviderConfig>,
  prompt: string,
  act?: (cancel: () => void) => void,
): Promise<{ result: SubagentResult; h: ParentHarness }> {
  const h = await startParent();
  try {
    await h.loadFixtureProvider('echo-agent.mjs', { stderr: 'log', ...config });
    const run = await h.subagents.start('acp', { prompt, parent: h.parent, signal: new AbortController().signal });
    act?.(() => run.cancel('enough'));
    const result = await run.result;
    await run.dispose();
    return { result, h };
  } finally {
    await h.close();
  }
}

/** Records `mode` of the Python agent against a loopback model server, then removes the agent and the server. */
async function record(
  f: Fixture,
  mode: string,
  config: Partial<AcpProviderConfig> = {},
  act?: (cancel: () => void) => void,
): Promise<SubagentResult> {
  const server = await startModelServer({ scripts: { lineages: { 'main/c1': [{ text: 'twenty-three' }] } } });
  const recorder = new ProtocolRecorder();
  try {
    const { result } = await runOnce(
      {
        command: 'python3',
        args: [f.agent, mode],
        env: { PY_AGENT_BASE_URL: server.url },
        channel: recorder.channel,
        ...config,
      },
      'Name a prime in 20..30.',
      act,
    );
    await writeAcpCassette(f.dir, await recorder.exchanges());
    return result;
  } finally {
    await server.close();
    await rm(f.agent);
  }
}

async function replay(
  f: Fixture,
  config: Partial<AcpProviderConfig> = {},
  prompt = 'Name a prime in 20..30.',
  act?: (cancel: () => void) => void,
  timing: ReplayTiming = 'instant',
) {
  const player = new ProtocolReplay(await loadAcpCassette(f.dir, HINT), { recordHint: HINT, location: f.dir, timing });
  const { result, h } = await runOnce({ command: f.agent, args: [], channel: player.channel, ...config }, prompt, act);
  return { result, failures: player.failures(), logs: h.logger.lines };
}

describe.concurrent(
  'ACP protocol cassettes: a third-party agent with its own HTTP client, recorded once, replayed without its command',
  () => {
    test("the Python agent's answer replays identically, instantly or paced, with the script deleted and no model server", async (context) => {
      const f = await fixture(context);
      const recorded = await record(f, 'answer');
      expect(recorded).toEqual({ output: 'twenty-three', stopReason: 'completed' });
      const file = JSON.parse(await readFile(join(f.dir, 'acp/main/c1.json'), 'utf8')) as {
        entries: { from: string; message?: { method?: string } }[];
      };
      expect(file.entries.filter((e) => e.from === 'client').map((e) => e.message?.method)).toEqual([
        'initialize',
        'session/new',
        'session/prompt',
      ]);
      const replayed = await replay(f);
      expect(replayed.failures).toEqual([]);
      expect(replayed.result).toEqual(recorded);
      const paced = await replay(f, {}, undefined, undefined, { scale: 0.1 });
      expect(paced.failures).toEqual([]);
      expect(paced.result).toEqual(recorded);
    });

    test('a crash mid-prompt replays as the same error: partial output, exit code and stderr tail', async (context) => {
      const f = await fixture(context);
      const recorded = await record(f, 'crash');
      expect(recorded).toMatchObject({ output: 'twenty-three'.slice(0, recorded.output.length), stopReason: 'error' });
      expect(recorded.diagnostic).toMatch(
        /exited with code 3 during the prompt; its last stderr lines: .*segmentation fault \(simulated\)/,
      );
      const replayed = await replay(f);
      expect(replayed.failures).toEqual([]);
      expect(replayed.result).toEqual(recorded);
    });

    test(
      'a cancel mid-prompt is served where the recording had it, and the recorded agent answers as it did',
      { timeout: 60_000 },
      async (context) => {
        const f = await fixture(context);
        // The agent answers the cancelled prompt only once its own model call returns, and dispose
        // stops it after the EOF grace. Under load (start-up alone once took the agent 7.5 s) the
        // default 6 s grace ran out first: the agent was killed mid-call and its answer never
        // recorded. It exits on EOF right after answering, so a long grace costs nothing when calm.
        const recorded = await record(f, 'until-cancel', { disposeEofGraceMs: 45_000 }, (cancel) => cancel());
        expect(recorded).toEqual({ output: '', stopReason: 'aborted', diagnostic: 'cancelled: enough' });
        const file = await readFile(join(f.dir, 'acp/main/c1.json'), 'utf8');
        expect(file).toContain('"method":"session/cancel"');
        expect(file).toContain('"stopReason":"cancelled"');
        const replayed = await replay(f, {}, undefined, (cancel) => cancel());
        expect(replayed.failures).toEqual([]);
        expect(replayed.result).toEqual(recorded);
      },
    );

    test('a permission request replays with the recorded answer; a client answering otherwise is the first divergence', async (context) => {
      const f = await fixture(context);
      const recorded = await record(f, 'ask-permission', { permission: 'allow' });
      expect(recorded).toEqual({ output: 'permission allow: twenty-three', stopReason: 'completed' });
      expect((await replay(f, { permission: 'allow' })).result).toEqual(recorded);
      const refused = await replay(f, { permission: 'reject' });
      expect(refused.failures.map((failure) => failure.code)).toEqual(['ACP_REQUEST_MISMATCH']);
      expect(refused.failures[0]?.message).toMatch(/client frame 4 .* does not match the recording at result\.outcome/);
      expect(refused.result.stopReason).toBe('error');
    });

    test('a different prompt is refused at its first divergence with a typed error', async (context) => {
      const f = await fixture(context);
      await record(f, 'answer');
      const { result, failures } = await replay(f, {}, 'Name a prime in 30..40.');
      expect(failures.map((failure) => failure.code)).toEqual(['ACP_REQUEST_MISMATCH']);
      expect(failures[0]?.message).toContain('at params.prompt[0].text');
      expect(failures[0]?.message).toContain('recorded: "Name a prime in 20..30."');
      expect(result.stopReason).toBe('error');
      expect(result.diagnostic).toContain('ACP_REQUEST_MISMATCH');
    });

    test('a lineage with no recording fails start-up naming it, and an invalid file fails the load naming the field', async (context) => {
      const f = await fixture(context);
      await record(f, 'answer');
      const player = new ProtocolReplay(new Map(), { recordHint: HINT, location: f.dir });
      const h = await startParent();
      context.onTestFinished(() => h.close());
      await h.loadFixtureProvider('echo-agent.mjs', { channel: player.channel });
      const error = (await h.subagents
        .start('acp', { prompt: 'x', parent: h.parent, signal: new AbortController().signal })
        .catch((e: unknown) => e)) as Error;
      expect(error.message).toContain('ACP child "main/c1" has no protocol recording');
      expect(player.failures().map((failure) => failure.code)).toEqual(['ACP_CASSETTE_NOT_FOUND']);
      const path = join(f.dir, 'acp/main/c1.json');
      await writeFile(
        path,
        (await readFile(path, 'utf8'))
          .replace('"from": "client"', '"from": "nobody"')
          .replace(/"from":"client"/, '"from":"nobody"'),
      );
      await expect(loadAcpCassette(f.dir, HINT)).rejects.toMatchObject({
        code: 'ACP_CASSETTE_INVALID',
        message: expect.stringContaining('/entries/0/from'),
      });
    });

    test('a secret the child says is refused before anything is written', async (context) => {
      const f = await fixture(context);
      const secret = 'sk-test-0123456789abcdef';
      const server = await startModelServer({
        scripts: { lineages: { 'main/c1': [{ text: `the key is ${secret}` }] } },
      });
      context.onTestFinished(async () => void (await server.close()));
      const recorder = new ProtocolRecorder();
      await runOnce(
        { command: 'python3', args: [f.agent], env: { PY_AGENT_BASE_URL: server.url }, channel: recorder.channel },
        'leak it',
      );
      await expect(
        writeAcpCassette(f.dir, await recorder.exchanges(), { secrets: [{ value: secret, label: 'PY_AGENT_KEY' }] }),
      ).rejects.toMatchObject({
        code: 'SECRET_IN_RECORDING',
        message: expect.stringContaining('PY_AGENT_KEY appears'),
      });
      await expect(readFile(join(f.dir, 'acp/main/c1.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    });
  },
);
