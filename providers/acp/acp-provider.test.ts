import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, type TestContext } from 'vitest';
import { fixture, fixturePid, isAlive, startParent, type ParentHarness } from '../../test/fixtures/acp/acp-test-kit.js';
import { createAcpProvider } from './acp-provider.js';

async function parent(context: TestContext): Promise<ParentHarness> {
  const harness = await startParent();
  context.onTestFinished(() => harness.close());
  return harness;
}

const live = (): AbortSignal => new AbortController().signal;

describe.concurrent('acp provider with a cooperative child', () => {
  test('streams the child answer into a completed result, and dispose ends the child on stdin EOF', async (context) => {
    const h = await parent(context);
    // A grace no loaded machine outlasts: the test is about the EOF rung, not about its length.
    await h.loadFixtureProvider('echo-agent.mjs', { disposeEofGraceMs: 60_000 });
    const run = await h.subagents.start('acp', { prompt: 'hello child', parent: h.parent, signal: live() });
    expect(await run.result).toEqual({ output: 'echo: hello child', stopReason: 'completed' });
    const pid = await fixturePid(h, 'echo-agent.mjs');
    await run.dispose();
    expect(isAlive(pid)).toBe(false);
    expect(h.logger.lines.some((line) => line.includes(`child pid ${pid} exited with code 0 (after stdin EOF)`))).toBe(
      true,
    );
  });

  test.for([
    ['max_tokens', 'max-tokens'],
    ['refusal', 'refusal'],
    ['max_turn_requests', 'error'],
  ] as const)(
    'maps the ACP stop reason %s to %s, keeping the output and saying why',
    async ([acp, expected], context) => {
      const h = await parent(context);
      await h.loadFixtureProvider('echo-agent.mjs', { env: { ECHO_STOP: acp } });
      const run = await h.subagents.start('acp', { prompt: 'x', parent: h.parent, signal: live() });
      const result = await run.result;
      await run.dispose();
      expect(result.stopReason).toBe(expected);
      expect(result.output).toBe('echo: x');
      expect(result.diagnostic).toContain(`stopReason "${acp}"`);
    },
  );

  test('runs the child in the parent session cwd, with its lineage, the sessions root, and explicit env but no ambient secrets', async (context) => {
    const h = await parent(context);
    const provider = createAcpProvider(
      {
        command: process.execPath,
        args: [fixture('echo-agent.mjs')],
        env: {
          ECHO_CWD: '1',
          ECHO_ENV: 'NESTCAST_LINEAGE,NESTCAST_SESSIONS_ROOT,AMBIENT_API_KEY,GIVEN_TOKEN',
          GIVEN_TOKEN: 'explicit',
        },
      },
      { logger: h.logger, sessionsRoot: h.sessionsRoot, env: { ...process.env, AMBIENT_API_KEY: 'must-not-leak' } },
    );
    h.subagents.registerProvider(provider);
    const run = await h.subagents.start('acp', {
      prompt: 'env?',
      parent: h.parent,
      signal: live(),
      spawnedBy: 'call_7',
    });
    const { output } = await run.result;
    await run.dispose();
    expect(output).toBe(
      [
        'NESTCAST_LINEAGE=main/call_7',
        `NESTCAST_SESSIONS_ROOT=${h.sessionsRoot}`,
        'AMBIENT_API_KEY=<unset>',
        'GIVEN_TOKEN=explicit',
        `process ${h.scratch}`,
        `session ${h.scratch}`,
        'echo: env?',
      ].join('\n'),
    );
  });

  test('a configured cwd overrides the parent session cwd for the process and its ACP session', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('echo-agent.mjs', { cwd: h.sessionsRoot, env: { ECHO_CWD: '1' } });
    const run = await h.subagents.start('acp', { prompt: 'where', parent: h.parent, signal: live() });
    const { output } = await run.result;
    await run.dispose();
    expect(output).toBe(`process ${h.sessionsRoot}\nsession ${h.sessionsRoot}\necho: where`);
  });

  test.for([
    ['reject', 'allow-offered', 'permission: cancelled', 'aborted'],
    ['allow', 'allow-offered', 'permission: selected yes', 'completed'],
    ['allow', 'reject-only', 'permission: cancelled', 'aborted'],
  ] as const)(
    'under the %s policy a child offering %s options is answered "%s"',
    async ([policy, offered, output, stopReason], context) => {
      const h = await parent(context);
      await h.loadFixtureProvider('echo-agent.mjs', { permission: policy, env: { ECHO_PERMISSION: offered } });
      const run = await h.subagents.start('acp', { prompt: 'may I?', parent: h.parent, signal: live() });
      expect(await run.result).toMatchObject({ output, stopReason });
      await run.dispose();
    },
  );

  test('tolerates non-protocol lines on the child stdout and still completes', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('garbage-stdout.mjs');
    const run = await h.subagents.start('acp', { prompt: 'x', parent: h.parent, signal: live() });
    expect(await run.result).toEqual({ output: 'answer despite the noise', stopReason: 'completed' });
    await run.dispose();
    expect(isAlive(await fixturePid(h, 'garbage-stdout.mjs'))).toBe(false);
  });

  test('dispose is idempotent: every call returns the same promise', async (context) => {
    const h = await parent(context);
    await h.loadFixtureProvider('echo-agent.mjs');
    const run = await h.subagents.start('acp', { prompt: 'x', parent: h.parent, signal: live() });
    const first = run.dispose();
    expect(run.dispose()).toBe(first);
    await Promise.all([first, run.dispose()]);
    expect(isAlive(await fixturePid(h, 'echo-agent.mjs'))).toBe(false);
  });
});

describe('acp provider registration', () => {
  test.for([
    ['maxDepth', { maxDepth: 2 }],
    ['toolFilter', { toolFilter: { deny: ['x'] } }],
    ['persona', { persona: 'terse' }],
    ['outputSchema', { outputSchema: { type: 'object' } }],
  ] as const)(
    'advertises no %s capability, so the service refuses it before anything is spawned',
    async ([, extra], context) => {
      const h = await parent(context);
      const marker = join(h.scratch, 'spawned');
      await h.loadFixtureProvider('echo-agent.mjs', {
        command: process.execPath,
        args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`],
      });
      await expect(
        h.subagents.start('acp', { prompt: 'x', parent: h.parent, signal: live(), ...extra }),
      ).rejects.toMatchObject({ code: 'UNSUPPORTED_CAPABILITY' });
      expect(existsSync(marker)).toBe(false);
      expect(h.subagents.getProvider('acp')).toMatchObject({ inheritsParentContext: false });
    },
  );

  test('registers under the configured name and leaves the registry when its plugin unloads', async (context) => {
    const h = await parent(context);
    const unload = await h.runtime.use((await import('./acp-provider.js')).acpProvider, {
      name: 'remote',
      command: 'nestcast',
    });
    expect(h.subagents.list()).toContain('remote');
    await unload();
    expect(h.subagents.list()).not.toContain('remote');
  });

  test('fails loading with NO_SERVICE when the subagents service is missing', async (context) => {
    const h = await parent(context);
    const { Runtime } = await import('../../harness/runtime.js');
    const bare = new Runtime({ sessionsRoot: h.sessionsRoot, logger: h.logger });
    const { acpProvider } = await import('./acp-provider.js');
    await expect(bare.use(acpProvider, { command: 'nestcast' })).rejects.toMatchObject({ code: 'NO_SERVICE' });
    await bare.dispose();
  });
});
