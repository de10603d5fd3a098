import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { describe, expect, test } from 'vitest';
import type { AuthoredScript } from '../../toolkit/authored/types.js';
import { main as cli } from '../../toolkit/cli/main.js';
import { expectReplaysToGive, recordFramework, type FrameworkRun } from '../support/framework-cassette.js';
import { useTempDir } from '../support/use-temp-dir.js';

const delegate: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'delegate',
    parameters: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] },
  },
};
const lookup: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'lookup',
    parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
  },
};

/** A user's own agent loop over the openai SDK: streams, runs tools concurrently, a `delegate` tool runs a child loop. */
function agentLoop(client: OpenAI) {
  const loop = async (system: string, prompt: string, tools: ChatCompletionTool[]): Promise<string> => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: system },
      { role: 'user', content: prompt },
    ];
    for (let step = 0; step < 4; step++) {
      const stream = await client.chat.completions.create({ model: 'scripted', messages, tools, stream: true });
      let text = '';
      const calls: { id: string; name: string; args: string }[] = [];
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta;
        text += delta?.content ?? '';
        for (const fragment of delta?.tool_calls ?? []) {
          const call = (calls[fragment.index] ??= { id: '', name: '', args: '' });
          call.id ||= fragment.id ?? '';
          call.name ||= fragment.function?.name ?? '';
          call.args += fragment.function?.arguments ?? '';
        }
      }
      if (calls.length === 0) return text;
      messages.push({
        role: 'assistant',
        content: text,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.args },
        })),
      });
      const results = await Promise.all(
        calls.map(async (call) => {
          const args = JSON.parse(call.args) as { task?: string; key?: string };
          if (call.name === 'delegate') return loop('You are a helper.', `Your task: ${args.task}`, [lookup]);
          return `value of ${args.key}`;
        }),
      );
      calls.forEach((call, i) => messages.push({ role: 'tool', tool_call_id: call.id, content: results[i] as string }));
    }
    throw new Error('the loop never answered');
  };
  return loop;
}

const orchestrate: FrameworkRun<string> = async (fetch, baseURL) => {
  const client = new OpenAI({ apiKey: 'sk-test-not-a-key', baseURL, fetch, maxRetries: 0 });
  return agentLoop(client)('You coordinate helpers.', 'Collect the two reports.', [delegate]);
};

const script: AuthoredScript = {
  lineages: {
    main: [
      {
        text: 'Asking two helpers.',
        toolCalls: [
          { id: 'call_sales', name: 'delegate', args: { task: 'summarise sales' } },
          { id: 'call_costs', name: 'delegate', args: { task: 'summarise costs' } },
        ],
      },
      { text: 'Both reports are in.' },
    ],
    'main/call_sales': [
      { toolCalls: [{ id: 'call_sales_lookup', name: 'lookup', args: { key: 'sales' } }] },
      { text: 'Sales are up.' },
    ],
    'main/call_costs': [{ text: 'Costs are flat.' }],
  },
};

const dir = useTempDir('openai-loop-');

describe('a hand-written parent/child loop over the openai SDK', () => {
  test('the keyless model server serves each child its own script, and the recording replays 50 times with 0 failures', async () => {
    const recorded = await recordFramework({ script, dir: dir.path, run: orchestrate, seed: 41 });
    expect(recorded.result).toBe('Both reports are in.');
    expect(recorded.served).toEqual([
      { lineage: 'main', consumed: 2, total: 2 },
      { lineage: 'main/call_costs', consumed: 1, total: 1 },
      { lineage: 'main/call_sales', consumed: 2, total: 2 },
    ]);
    const mainSecond = JSON.stringify(recorded.cassette.calls['main']?.[1]?.request);
    expect(mainSecond).toContain('Sales are up.');
    expect(mainSecond).toContain('Costs are flat.');

    await expectReplaysToGive('Both reports are in.', {
      cassette: recorded.cassette,
      run: orchestrate,
      times: 50,
      seed: 5000,
    });
  });
});

describe('a child two open tool calls match equally', () => {
  test('is AMBIGUOUS_CHILD in the record report, in meta.json and in nestcast inspect, naming both calls and the fix', async () => {
    const twins: AuthoredScript = {
      lineages: {
        main: [
          {
            toolCalls: [
              { id: 'call_a', name: 'delegate', args: { task: 'summarise sales' } },
              { id: 'call_b', name: 'delegate', args: { task: 'summarise sales' } },
            ],
          },
          { text: 'Done twice.' },
        ],
        'main/call_a': [{ text: 'Sales are up.' }],
        'main/call_b': [{ text: 'Sales are up.' }],
      },
    };
    const recorded = await recordFramework({ script: twins, dir: dir.path, run: orchestrate, seed: 42 });
    expect(recorded.result).toBe('Done twice.');
    expect(recorded.report.ambiguities).toHaveLength(1);
    expect(recorded.report.ambiguities[0]?.message).toMatch(
      /delegate call call_a of "main" and delegate call call_b of "main"[\s\S]*x-session-lineage/,
    );
    expect(recorded.cassette.ambiguities).toEqual([
      {
        lineage: 'main/call_a',
        candidates: [
          { lineage: 'main', id: 'call_a', name: 'delegate' },
          { lineage: 'main', id: 'call_b', name: 'delegate' },
        ],
      },
    ]);
    let out = '';
    const io = {
      stdout: (text: string) => void (out += text),
      stderr: () => undefined,
      env: { NO_COLOR: '1' },
      cwd: dir.path,
      color: false,
    };
    expect(await cli(['inspect', dir.path], io)).toBe(0);
    expect(out).toContain(
      'AMBIGUOUS_CHILD session "main/call_a" matched delegate call call_a of "main" and delegate call call_b of "main"',
    );
    expect(out).toContain('Fix: give those calls different arguments');
  });
});
