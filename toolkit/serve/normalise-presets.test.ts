import { expect, test } from 'vitest';
import { createNormaliser } from '../normalisation/normaliser.js';
import { NORMALISE_PRESETS } from './normalise-presets.js';

test('the codex preset makes two runs of the same codex exec prompt equal: per-run UUIDs and the turn start time', () => {
  const run = (id: string, started: number) => ({
    prompt_cache_key: id,
    client_metadata: {
      'x-codex-turn-metadata': `{"turn_id":"${id}","turn_started_at_unix_ms":${started},"model":"gpt-5"}`,
    },
  });
  const { apply } = createNormaliser({ rules: NORMALISE_PRESETS['codex'] ?? [] }, 'the codex preset');
  expect(apply(run('01a234d6-31db-78c0-a62b-b3bc17260ca6', 1796183201420))).toEqual(
    apply(run('01a234d6-848f-7011-acec-bae9263fdcce', 1796183220144)),
  );
});

test("the codex preset makes two runs of the same exec_command equal: the result's chunk id and wall time, not its exit code or output", () => {
  const run = (chunk: string, seconds: string, code = 0) => ({
    input: [
      {
        type: 'function_call_output',
        call_id: 'call_exec1',
        output: `Chunk ID: ${chunk}\nWall time: ${seconds} seconds\nProcess exited with code ${code}\nOriginal token count: 0\nOutput:\n`,
      },
    ],
  });
  const { apply } = createNormaliser({ rules: NORMALISE_PRESETS['codex'] ?? [] }, 'the codex preset');
  expect(apply(run('05c31f', '0.0255'))).toEqual(apply(run('0ef3de', '0.0000')));
  expect(apply(run('05c31f', '0.0255'))).not.toEqual(apply(run('0ef3de', '0.0000', 1)));
});

test('the claude-code preset makes two runs of the same claude -p task equal: session and device ids, the date, the machine, the sub-agent id and run time', () => {
  const run = (session: string, device: string, date: string, agent: string, ms: number, shell = 'bash') => ({
    system: [
      {
        type: 'text',
        text: `Use the tools.\n - Platform: linux\n - Shell: ${shell}\n - OS Version: Linux ${ms}.0-generic\n\nToday's date is ${date}.`,
      },
    ],
    messages: [
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_task1',
            content: [
              {
                type: 'text',
                text: `Done.\nagentId: ${agent} (use SendMessage with to: '${agent}' to continue this agent)\n<usage>duration_ms: ${ms}</usage>`,
              },
            ],
          },
        ],
      },
    ],
    metadata: { user_id: `{"device_id":"${device}","account_uuid":"","session_id":"${session}"}` },
  });
  const { apply } = createNormaliser({ rules: NORMALISE_PRESETS['claude-code'] ?? [] }, 'the claude-code preset');
  const first = apply(
    run('ff0cc0bb-7af0-42ae-ab21-4faa721c1460', 'ab'.repeat(32), '2026-12-02', 'afa9ee43686038c87', 1287),
  );
  const second = apply(
    run('01f65642-d5d5-45f3-b4da-e6136a8689ef', 'cd'.repeat(32), '2027-01-15', 'a310ded74d8adc5bc', 644, 'unknown'),
  );
  expect(first).toEqual(second);
  // The lines after the machine's stay as they were.
  expect(JSON.stringify(first)).toContain('OS Version: <os-version>\\n\\nToday');
  // What the task says stays: only the generated values are rewritten.
  expect(JSON.stringify(first)).toContain('Use the tools.');
  expect(JSON.stringify(first)).toContain('toolu_task1');
});
