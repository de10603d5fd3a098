import { GoogleGenAI, type Content, type FunctionCall, type FunctionDeclaration, type Part } from '@google/genai';
import { describe, expect, test } from 'vitest';
import type { AuthoredScript } from '../../toolkit/authored/types.js';
import { derivedCallId } from '../../toolkit/protocols/gemini/call-ids.js';
import { expectReplaysToGive, recordFramework, type FrameworkRun } from '../support/framework-cassette.js';
import { useTempDir } from '../support/use-temp-dir.js';

const askChild: FunctionDeclaration = {
  name: 'ask_child',
  parametersJsonSchema: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] },
};
const lookup: FunctionDeclaration = {
  name: 'lookup',
  parametersJsonSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
};

function clientFor(fetch: typeof globalThis.fetch, baseURL: string): GoogleGenAI {
  // The SDK adds `/v1beta/models/<model>:…` itself.
  return new GoogleGenAI({
    apiKey: 'gemini-test-not-a-key',
    httpOptions: { baseUrl: baseURL.replace(/\/v1$/, ''), fetch },
  });
}

/** A sub-agent: a manual function-calling loop over `generateContent` (JSON answers). */
async function child(ai: GoogleGenAI, task: string): Promise<string> {
  const contents: Content[] = [{ role: 'user', parts: [{ text: `Your task: ${task}` }] }];
  for (let step = 0; step < 4; step++) {
    const response = await ai.models.generateContent({
      model: 'scripted',
      contents,
      config: { systemInstruction: 'You are a helper.', tools: [{ functionDeclarations: [lookup] }] },
    });
    const content = response.candidates?.[0]?.content ?? { role: 'model', parts: [] };
    const calls = response.functionCalls ?? [];
    if (calls.length === 0) return textOf(content.parts);
    contents.push(content);
    contents.push({
      role: 'user',
      parts: calls.map((call) => ({
        functionResponse: { name: call.name, response: { output: `value of ${String(call.args?.['key'])}` } },
      })),
    });
  }
  throw new Error('the child never answered');
}

/**
 * The parent: a streamed chat (`sendMessageStream`, whose history keeps one content per chunk) whose
 * `ask_child` calls each run a sub-agent, concurrently; the function responses carry no ids.
 */
const orchestrate: FrameworkRun<string> = async (fetch, baseURL) => {
  const ai = clientFor(fetch, baseURL);
  const chat = ai.chats.create({
    model: 'scripted',
    config: { systemInstruction: 'You coordinate helpers.', tools: [{ functionDeclarations: [askChild] }] },
  });
  let message: string | Part[] = 'Collect the two reports.';
  for (let step = 0; step < 4; step++) {
    let text = '';
    const calls: FunctionCall[] = [];
    for await (const chunk of await chat.sendMessageStream({ message })) {
      text += textOf(chunk.candidates?.[0]?.content?.parts);
      calls.push(...(chunk.functionCalls ?? []));
    }
    if (calls.length === 0) return text;
    const results = await Promise.all(calls.map((call) => child(ai, String(call.args?.['task']))));
    message = calls.map((call, i) => ({ functionResponse: { name: call.name, response: { output: results[i] } } }));
  }
  throw new Error('the parent never answered');
};

function textOf(parts: readonly Part[] | undefined): string {
  return (parts ?? []).map((part) => (part.thought ? '' : (part.text ?? ''))).join('');
}

// Gemini calls carry no ids: a child session is named by the id derived from the call's name, arguments and position.
const salesCall = derivedCallId('ask_child', { task: 'summarise sales' }, 0);
const costsCall = derivedCallId('ask_child', { task: 'summarise costs' }, 1);
const script: AuthoredScript = {
  model: 'scripted',
  lineages: {
    main: [
      {
        text: 'Asking two helpers.',
        toolCalls: [
          { name: 'ask_child', args: { task: 'summarise sales' } },
          { name: 'ask_child', args: { task: 'summarise costs' } },
        ],
      },
      { text: 'Both reports are in.' },
    ],
    [`main/${salesCall}`]: [{ toolCalls: [{ name: 'lookup', args: { key: 'sales' } }] }, { text: 'Sales are up.' }],
    [`main/${costsCall}`]: [{ text: 'Costs are flat.' }],
  },
};

const dir = useTempDir('google-genai-');

describe('@google/genai function calling with nested sub-agents, no lineage in user code', () => {
  test('a streamed chat parent and JSON children record against the model server and replay 50 times with random delays and 0 failures', async () => {
    const recorded = await recordFramework({ script, dir: dir.path, run: orchestrate, seed: 71 });
    expect(recorded.result).toBe('Both reports are in.');
    expect(recorded.served).toEqual(
      [
        { lineage: 'main', consumed: 2, total: 2 },
        { lineage: `main/${costsCall}`, consumed: 1, total: 1 },
        { lineage: `main/${salesCall}`, consumed: 2, total: 2 },
      ].sort((a, b) => (a.lineage < b.lineage ? -1 : 1)),
    );
    const main = recorded.cassette.calls['main'] ?? [];
    expect(main.map((call) => ('events' in call.response ? 'stream' : 'body'))).toEqual(['stream', 'stream']);
    expect('body' in (recorded.cassette.calls[`main/${costsCall}`]?.[0]?.response ?? {})).toBe(true);
    const second = JSON.stringify(main[1]?.request);
    expect(second).toContain('Sales are up.');
    expect(second).toContain('Costs are flat.');

    await expectReplaysToGive('Both reports are in.', {
      cassette: recorded.cassette,
      run: orchestrate,
      times: 50,
      seed: 7100,
    });
  });
});
