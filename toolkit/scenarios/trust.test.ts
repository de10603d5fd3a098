import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { startModelServer } from '../model-server/model-server.js';
import { stripUrlCredentials } from '../secrets/strip-url-credentials.js';
import { runScenario } from './run-scenario.js';
import type { ScenarioDefinition } from './types.js';

const TOKEN = 'tok-live-0123456789abcdef';

let recordingsDir: string;
beforeEach(async () => {
  recordingsDir = join(await makeTempDir('trust-'), 'recordings');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await removeTempDir(join(recordingsDir, '..'));
});

/** A scenario whose one tool returns what `output()` gives, then the model answers. */
function toolReturning(name: string, output: () => string): ScenarioDefinition {
  return {
    name,
    description: 'a tool result that carries a credential',
    tools: [
      {
        name: 'read_env',
        description: 'reads',
        parameters: { type: 'object', properties: {} },
        execute: async () => output(),
      },
    ],
    steps: [{ prompt: 'read it' }],
    script: { lineages: { main: [{ toolCalls: [{ id: 'c1', name: 'read_env', args: {} }] }, { text: 'done' }] } },
  };
}

function codes(report: { failures: readonly { code: string }[] }): string[] {
  return report.failures.map((failure) => failure.code);
}

describe('nothing secret reaches a file', () => {
  test('a keyless record whose tool result holds a key-like variable’s value saves nothing and names the variable, never the value', async () => {
    vi.stubEnv('SOME_SERVICE_TOKEN', TOKEN);
    const report = await runScenario(
      toolReturning('leaks', () => `token=${process.env['SOME_SERVICE_TOKEN']}`),
      { mode: 'record', recordingsDir },
    );
    expect(codes(report)).toContain('SECRET_IN_RECORDING');
    expect(codes(report)).toContain('NOT_SAVED');
    expect(JSON.stringify(report)).toContain('the SOME_SERVICE_TOKEN environment variable');
    expect(JSON.stringify(report)).not.toContain(TOKEN);
    expect(existsSync(recordingsDir)).toBe(false);
  });

  test('run --update refuses too: the key removed from the environment for the replay is still known to the scan', async () => {
    vi.stubEnv('OPENAI_API_KEY', TOKEN);
    const leak = toolReturning('update-leaks', () => `key ${TOKEN.split('').join('')}`);
    const report = await runScenario(leak, { mode: 'replay', update: true, recordingsDir });
    expect(codes(report)).toEqual(expect.arrayContaining(['SECRET_IN_RECORDING', 'NOT_SAVED']));
    expect(JSON.stringify(report)).not.toContain(TOKEN);
    expect(existsSync(recordingsDir)).toBe(false);
    expect(process.env['OPENAI_API_KEY']).toBe(TOKEN);
  });

  test('an ACP child that refuses to save its calls fails the parent with NOT_SAVED instead of a recording without them', async () => {
    const key = 'sk-test-child-0123456789abcdef';
    const script = {
      lineages: {
        main: [
          {
            toolCalls: [
              { id: 'call_prime', name: 'subagent_acp', args: { description: 'A prime', prompt: 'Name a prime.' } },
            ],
          },
          { text: 'The isolated agent says 23.' },
        ],
        // Only the child's stream carries the key: in its reasoning, which never reaches the parent's own files.
        'main/call_prime': [{ reasoning: `my key is ${key}`, text: '23' }],
      },
    };
    const api = await startModelServer({ scripts: script });
    try {
      const scenario: ScenarioDefinition = {
        name: 'child-refuses',
        description: 'x',
        providers: [{ kind: 'acp' }],
        subagentTools: [
          { provider: 'acp', toolName: 'subagent_acp', maxDepth: 'provider-managed', enableRunInBackground: false },
        ],
        steps: [{ prompt: 'Ask an isolated agent for a prime.' }],
      };
      const report = await runScenario(scenario, {
        mode: 'record',
        recordingsDir,
        baseUrl: api.url,
        model: 'test-model',
        env: { ...process.env, DEEPSEEK_API_KEY: key },
      });
      expect(report.failures[0]).toMatchObject({
        code: 'SECRET_IN_RECORDING',
        message: expect.stringContaining('an ACP child refused to save its calls'),
      });
      expect(codes(report)).toContain('NOT_SAVED');
      expect(JSON.stringify(report)).not.toContain(key);
      expect(existsSync(recordingsDir)).toBe(false);
    } finally {
      await api.close();
    }
  }, 60_000);

  test('credentials in a base URL are cut out and remembered', () => {
    expect(stripUrlCredentials('https://user:pa55word-long@api.example.com/v1?token=tok-query-0123456789')).toBe(
      'https://api.example.com/v1',
    );
  });
});

describe('no silent downgrade', () => {
  test('calls without their meta.json are CASSETTE_INVALID, not a reason to replay the authored script', async () => {
    await mkdir(join(recordingsDir, 'half', 'calls'), { recursive: true });
    await writeFile(join(recordingsDir, 'half', 'calls', 'main.jsonl'), '');
    const scenario: ScenarioDefinition = {
      name: 'half',
      description: 'x',
      steps: [{ prompt: 'hi' }],
      script: { lineages: { main: [{ text: 'hi' }] } },
    };
    const report = await runScenario(scenario, { recordingsDir });
    expect(report.passed).toBe(false);
    expect(report.failures[0]).toMatchObject({
      code: 'CASSETTE_INVALID',
      message: expect.stringContaining('meta.json: is missing but calls/ is there'),
    });
  });

  test('a record whose endpoint refused the connection is NOT_SAVED, even for a scenario that expects nothing', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const scenario: ScenarioDefinition = { name: 'refused', description: 'x', steps: [{ prompt: 'hi' }] };
    const report = await runScenario(scenario, {
      mode: 'record',
      recordingsDir,
      baseUrl: `http://127.0.0.1:${closedPort}`,
      model: 'test-model',
      env: { DEEPSEEK_API_KEY: 'sk-test-refused-0123456789' },
    });
    expect(codes(report)).toContain('NOT_SAVED');
    expect(report.failures.find((failure) => failure.message.includes('failed with network error'))).toBeDefined();
    expect(existsSync(join(recordingsDir, 'refused'))).toBe(false);
  });

  test('a record whose ACP child could not be started is CHILD_NOT_STARTED and saves nothing, for either cassette kind; a child that started and crashed is recorded, and its replay where the command is missing leads with CHILD_NOT_STARTED', async () => {
    const delegating = (
      name: string,
      provider: Extract<NonNullable<ScenarioDefinition['providers']>[number], { kind: 'acp' }>,
    ): ScenarioDefinition => ({
      name,
      description: 'x',
      providers: [provider],
      subagentTools: [
        { provider: 'acp', toolName: 'subagent_acp', maxDepth: 'provider-managed', enableRunInBackground: false },
      ],
      steps: [{ prompt: 'delegate' }],
      script: {
        lineages: {
          main: [
            { toolCalls: [{ id: 'call_child', name: 'subagent_acp', args: { description: 'd', prompt: 'p' } }] },
            { text: 'The child did not answer.' },
          ],
        },
      },
    });
    const missing = join(recordingsDir, '..', 'no-such-agent');
    for (const cassette of ['model-calls', 'protocol'] as const) {
      const name = `dead-${cassette}`;
      const report = await runScenario(delegating(name, { kind: 'acp', command: missing, cassette }), {
        mode: 'record',
        recordingsDir,
      });
      expect(codes(report)).toEqual(['CHILD_NOT_STARTED', 'NOT_SAVED']);
      expect(report.failures[0]?.message).toContain(
        `the ACP child for session "main/call_child" could not be started (spawn ${missing} ENOENT`,
      );
      expect(report.failures[0]?.message).toContain('then record again');
      expect(existsSync(join(recordingsDir, name))).toBe(false);
    }
    const crashing = delegating('crashing', {
      kind: 'acp',
      command: process.execPath,
      args: ['-e', 'process.exit(3)'],
    });
    const report = await runScenario(crashing, { mode: 'record', recordingsDir });
    expect(codes(report)).toEqual([]);
    expect(existsSync(join(recordingsDir, 'crashing', 'meta.json'))).toBe(true);

    // Replayed where the command is missing: the run fails anyway, and says why first.
    const replayed = await runScenario(delegating('crashing', { kind: 'acp', command: missing }), { recordingsDir });
    expect(codes(replayed)[0]).toBe('CHILD_NOT_STARTED');
    expect(replayed.failures[0]?.message).toContain('Its recording was made with the child running');
    expect(codes(replayed)).toContain('REQUEST_MISMATCH');
  });
});
