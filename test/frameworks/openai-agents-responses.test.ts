import { Agent, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import type { AuthoredScript } from '../../toolkit/authored/types.js';
import { expectReplaysToGive, recordFramework, type FrameworkRun } from '../support/framework-cassette.js';
import { useTempDir } from '../support/use-temp-dir.js';

setTracingDisabled(true);

/**
 * The Agents SDK on its default model (the Responses API: an `OpenAIProvider` left to its
 * defaults): an orchestrator that, in one turn, asks the math agent twice and the research agent
 * once; the research agent asks the fact agent (three levels). Streamed, every level streams.
 */
function orchestrate(stream: boolean): FrameworkRun<string> {
  return async (fetch, baseURL) => {
    const client = new OpenAI({ apiKey: 'sk-test-not-a-key', baseURL, fetch, maxRetries: 0 });
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client }) });
    const onStream = stream ? () => undefined : undefined;
    const fact = new Agent({ name: 'fact', instructions: 'You know facts.' });
    const research = new Agent({
      name: 'research',
      instructions: 'You research with the fact agent.',
      tools: [fact.asTool({ toolName: 'ask_fact', toolDescription: 'Ask the fact agent', onStream })],
    });
    const math = new Agent({ name: 'math', instructions: 'You compute.' });
    const orchestrator = new Agent({
      name: 'orchestrator',
      instructions: 'Delegate to your tools.',
      tools: [
        math.asTool({ toolName: 'ask_math', toolDescription: 'Ask the math agent', onStream }),
        research.asTool({ toolName: 'ask_research', toolDescription: 'Ask the research agent', onStream }),
      ],
    });
    const input = 'Compute two sums and look up the tides.';
    if (!stream) return String((await runner.run(orchestrator, input)).finalOutput);
    const result = await runner.run(orchestrator, input, { stream: true });
    await result.completed;
    return String(result.finalOutput);
  };
}

/** Keyed by the lineages nestcast derives: `main`, `main/<call id>`, `main/<call id>/<call id>`. */
const script: AuthoredScript = {
  model: 'scripted',
  lineages: {
    main: [
      {
        toolCalls: [
          { id: 'call_sum_small', name: 'ask_math', args: { input: 'What is 2+2?' } },
          { id: 'call_tides', name: 'ask_research', args: { input: 'Tides in Brest today' } },
          { id: 'call_sum_large', name: 'ask_math', args: { input: 'What is 300+400?' } },
        ],
      },
      { text: 'Done: 4, 700, high tide at 6.' },
    ],
    'main/call_sum_small': [{ text: 'The answer is 4.' }],
    'main/call_sum_large': [{ text: 'The answer is 700.' }],
    'main/call_tides': [
      { toolCalls: [{ id: 'call_high_tide', name: 'ask_fact', args: { input: 'When is high tide in Brest?' } }] },
      { text: 'High tide is at 6.' },
    ],
    'main/call_tides/call_high_tide': [{ text: 'At 6 in the morning.' }],
  },
};

const LINEAGES = Object.keys(script.lineages).sort();

const dir = useTempDir('agents-responses-');

describe('OpenAI Agents SDK on its default Responses model, agents as tools, no lineage in user code', () => {
  for (const stream of [false, true]) {
    test(`${stream ? 'streamed' : 'not streamed'}: recorded against the model server from a script keyed by derived lineages, it replays 50 times with random delays and 0 failures`, async () => {
      const run = orchestrate(stream);
      const recorded = await recordFramework({ script, dir: `${dir.path}/${String(stream)}`, run, seed: 21 });
      expect(recorded.result).toBe('Done: 4, 700, high tide at 6.');
      expect(Object.keys(recorded.cassette.calls).sort()).toEqual(LINEAGES);
      const calls = Object.values(recorded.cassette.calls).flat();
      expect(new Set(calls.map((call) => call.protocol))).toEqual(new Set(['openai-responses']));
      expect(new Set(calls.map((call) => 'events' in call.response))).toEqual(new Set([stream]));
      expect(recorded.served).toEqual(
        LINEAGES.map((lineage) => {
          const total = script.lineages[lineage]?.length ?? 0;
          return { lineage, consumed: total, total };
        }),
      );
      expect(recorded.report.ambiguities).toEqual([]);
      // Each child's recorded answer is its own: the second sum never got the first one's.
      const firstCall = (lineage: string) => JSON.stringify(recorded.cassette.calls[lineage]?.[0]);
      expect(firstCall('main/call_sum_large')).toContain('300+400');
      expect(firstCall('main/call_sum_large')).toContain('700');
      expect(firstCall('main/call_tides/call_high_tide')).toContain('At 6 in the morning.');

      await expectReplaysToGive('Done: 4, 700, high tide at 6.', {
        cassette: recorded.cassette,
        run,
        times: 50,
        seed: stream ? 3000 : 2000,
      });
    });
  }
});
