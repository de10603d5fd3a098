import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { CHILD_ENV } from '../../harness/acp-agent/child-env.js';
import { replaySource } from '../scenarios/model-source.js';
import { runScenario } from '../scenarios/run-scenario.js';
import type { ScenarioDefinition } from '../scenarios/types.js';
import { childrenFromBuiltCli } from '../../test/support/built-cli.js';

// The ACP children of the scenarios run here start from the build, not from the sources under tsx.
childrenFromBuiltCli();

let recordingsDir: string;
beforeEach(async () => {
  recordingsDir = join(await makeTempDir('outbox-'), 'recordings');
});
afterEach(async () => {
  await removeTempDir(join(recordingsDir, '..'));
});

/** A call of the ACP subagent tool; reusing its id gives two child processes one lineage. */
const ask = (prompt: string) => ({
  toolCalls: [{ id: 'call_same', name: 'subagent_acp', args: { description: 'A prime', prompt } }],
});

describe('ACP children hand their recordings over through the outbox', () => {
  test('a session two ACP children both recorded fails the record with CASSETTE_INVALID naming it, instead of keeping one', async () => {
    const scenario: ScenarioDefinition = {
      name: 'recorded-twice',
      description: 'two isolated agents that get one lineage',
      providers: [{ kind: 'acp' }],
      subagentTools: [
        { provider: 'acp', toolName: 'subagent_acp', maxDepth: 'provider-managed', enableRunInBackground: false },
      ],
      steps: [{ prompt: 'Ask for a prime.' }, { prompt: 'Ask again.' }],
      script: {
        lineages: {
          main: [ask('Name a prime.'), { text: 'It says 23.' }, ask('Name another.'), { text: 'It says 29.' }],
          'main/call_same': [{ text: '23' }, { text: '29' }],
        },
      },
    };
    const report = await runScenario(scenario, { mode: 'record', recordingsDir });
    expect(report.failures).toContainEqual(
      expect.objectContaining({
        code: 'CASSETTE_INVALID',
        message: expect.stringContaining('session "main/call_same" was recorded twice'),
      }),
    );
    expect(existsSync(recordingsDir)).toBe(false);
  }, 60_000);
});

describe('a replay reads what its ACP children reported', () => {
  test('a child report that is not JSON fails the replay with OUTBOX_INVALID naming the file', async () => {
    const workDir = join(recordingsDir, '..', 'work');
    const scenario: ScenarioDefinition = {
      name: 'bad-report',
      description: 'x',
      steps: [{ prompt: 'hi' }],
      script: { lineages: { main: [{ text: 'hi' }] } },
    };
    const source = await replaySource({ scenario, recordingDir: join(recordingsDir, scenario.name), workDir, env: {} });
    try {
      // Where a child handed this run's environment writes its report.
      const outbox = source.childEnv()[CHILD_ENV.outbox] as string;
      const report = join(outbox, 'replay-main%2Fcall_1.json');
      await writeFile(report, '{"sessions": [{"lineage": "main/call_1", "consumed"');
      await expect(source.finish()).rejects.toMatchObject({
        code: 'OUTBOX_INVALID',
        message: expect.stringContaining(`Invalid ACP outbox file ${report}: not valid JSON`),
      });
    } finally {
      await source.close();
    }
  });
});
