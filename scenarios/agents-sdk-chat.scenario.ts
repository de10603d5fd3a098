import { Agent, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { defineScenario } from '../toolkit/scenarios/define-scenario.js';

setTracingDisabled(true);

/**
 * A program scenario: an OpenAI Agents SDK editor on the chat-completions model
 * (`useResponses: false`, `/chat/completions` on the wire) that asks two agents-as-tools in one
 * turn; the SDK runs both tool calls at once. The sessions (`main`, `main/<tool call id>`) are
 * derived from the calls' content, as for the Responses API scenario `agents-sdk-parallel`.
 */
export default defineScenario({
  name: 'agents-sdk-chat',
  description:
    'Your own agent code: an OpenAI Agents SDK editor on the chat-completions model calls a translator and a proofreader agent-as-tool in parallel.',
  program: async ({ fetch, signal }) => {
    const client = new OpenAI({ apiKey: 'not-a-key', fetch, maxRetries: 0 });
    const runner = new Runner({
      model: 'gpt-4.1-mini',
      modelProvider: new OpenAIProvider({ useResponses: false, openAIClient: client }),
    });
    const translator = new Agent({ name: 'translator', instructions: 'You translate English into French.' });
    const proofreader = new Agent({ name: 'proofreader', instructions: 'You fix spelling mistakes.' });
    const editor = new Agent({
      name: 'editor',
      instructions: 'Prepare the notice: ask your tools, both at once, then give the final text.',
      tools: [
        translator.asTool({ toolName: 'translate', toolDescription: 'Translate a text into French' }),
        proofreader.asTool({ toolName: 'proofread', toolDescription: 'Correct the spelling of a text' }),
      ],
    });
    const result = await runner.run(editor, 'Prepare this notice in English and French: "The libary closes at noon."', {
      signal,
    });
    return String(result.finalOutput);
  },
  script: {
    model: 'gpt-4.1-mini',
    lineages: {
      main: [
        {
          toolCalls: [
            { id: 'call_fix', name: 'proofread', args: { input: 'The libary closes at noon.' } },
            { id: 'call_french', name: 'translate', args: { input: 'The library closes at noon.' } },
          ],
        },
        { text: 'EN: The library closes at noon. FR: La bibliothèque ferme à midi.' },
      ],
      'main/call_fix': [{ text: 'The library closes at noon.' }],
      'main/call_french': [{ text: 'La bibliothèque ferme à midi.' }],
    },
  },
  expect: {
    sessions: 3,
    turnEnd: { main: 'completed', 'main/call_fix': 'completed', 'main/call_french': 'completed' },
    output: {
      main: /FR: La bibliothèque ferme à midi\./,
      'main/call_fix': 'The library closes at noon.',
      'main/call_french': 'La bibliothèque ferme à midi.',
    },
    toolResults: { main: ['The library closes at noon.', 'La bibliothèque ferme à midi.'] },
    result: (notice) => notice === 'EN: The library closes at noon. FR: La bibliothèque ferme à midi.',
  },
});
