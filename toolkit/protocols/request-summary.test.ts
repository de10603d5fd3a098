import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCassette } from '../cassette/load-cassette.js';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import { PROTOCOLS, protocolById } from './registry.js';
import type { ProtocolId, WireProtocol } from './wire-protocol.js';

const RECORDINGS = join(process.cwd(), 'recordings');

/** Each API's own request with one function tool and parameters, as its documentation writes it. */
const REQUESTS: Record<ProtocolId, CanonicalRequest> = {
  'chat-completions': {
    model: 'gpt-4.1',
    temperature: 0.2,
    tool_choice: 'auto',
    messages: [{ role: 'user', content: 'Weather in Malta?' }],
    tools: [
      {
        type: 'function',
        function: { name: 'weather', description: 'Weather of a city', parameters: { type: 'object' } },
      },
    ],
  },
  'openai-responses': {
    model: 'gpt-4.1',
    max_output_tokens: 300,
    instructions: 'Be brief.',
    input: 'Weather in Malta?',
    tools: [
      { type: 'function', name: 'weather', description: 'Weather of a city', parameters: { type: 'object' } },
      { type: 'web_search' },
    ],
  },
  'anthropic-messages': {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    system: 'Be brief.',
    messages: [{ role: 'user', content: 'Weather in Malta?' }],
    tools: [{ name: 'weather', description: 'Weather of a city', input_schema: { type: 'object' } }],
  },
  gemini: {
    $url: { model: 'gemini-2.5-flash' },
    generationConfig: { temperature: 0.2 },
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    contents: [{ role: 'user', parts: [{ text: 'Weather in Malta?' }] }],
    tools: [
      {
        functionDeclarations: [{ name: 'weather', description: 'Weather of a city', parameters: { type: 'object' } }],
      },
      { googleSearch: {} },
    ],
  },
};

const PARAMETERS: Record<ProtocolId, string[]> = {
  'chat-completions': ['model', 'temperature', 'tool_choice'],
  'openai-responses': ['model', 'max_output_tokens'],
  'anthropic-messages': ['model', 'max_tokens'],
  gemini: ['$url', 'generationConfig'],
};

/** Each API's words for "the model answered" and "the model called tools", as its own renderer writes them. */
const STOPS: Record<ProtocolId, { text: string; tools: string }> = {
  'chat-completions': { text: 'stop', tools: 'tool_calls' },
  'openai-responses': { text: 'completed', tools: 'completed' },
  'anthropic-messages': { text: 'end_turn', tools: 'tool_use' },
  gemini: { text: 'STOP', tools: 'STOP' },
};

function rendered(protocol: WireProtocol, tools: boolean, stream: boolean) {
  return protocol.render(tools ? { toolCalls: [{ name: 'weather', args: { city: 'Malta' } }] } : { text: 'Sunny.' }, {
    stream,
    model: 'm',
    toolCallIds: ['call_1'],
    answerId: 'a1',
    eventDelay: 0,
  });
}

describe('each protocol summarises its requests and says why its answers stopped', () => {
  it.each(PROTOCOLS.map((protocol) => [protocol.id, protocol] as const))(
    '%s: tools by name with description and schema, parameters but the conversation',
    (id, protocol) => {
      const summary = protocol.requestSummary(REQUESTS[id]);
      expect(summary.tools[0]).toEqual({
        name: 'weather',
        description: 'Weather of a city',
        parameters: { type: 'object' },
      });
      expect(summary.tools.slice(1).map((tool) => tool.name)).toEqual(
        id === 'openai-responses' ? ['web_search'] : id === 'gemini' ? ['googleSearch'] : [],
      );
      expect(Object.keys(summary.parameters).sort()).toEqual([...PARAMETERS[id]].sort());
      expect(protocol.requestSummary({ ...REQUESTS[id], tools: 'not a list' }).tools).toEqual([]);
    },
  );

  it.each(PROTOCOLS.flatMap((protocol) => [true, false].map((stream) => [protocol.id, stream, protocol] as const)))(
    '%s (stream: %s): the stop reason of a text answer and of a tool call',
    (id, stream, protocol) => {
      expect(protocol.stopReason(rendered(protocol, false, stream))).toBe(STOPS[id].text);
      expect(protocol.stopReason(rendered(protocol, true, stream))).toBe(STOPS[id].tools);
      expect(protocol.stopReason({ error: { kind: 'network', message: 'reset' } })).toBeUndefined();
    },
  );

  it('reads every recorded request of the repository: nothing of the body is lost, the conversation is not a parameter', async () => {
    const folders = (await readdir(RECORDINGS, { withFileTypes: true })).filter((entry) => entry.isDirectory());
    const seen = new Set<string>();
    for (const folder of folders) {
      const cassette = await loadCassette(join(RECORDINGS, folder.name));
      for (const call of Object.values(cassette.calls).flat()) {
        const protocol = call.request === null ? undefined : protocolById(call.protocol ?? 'chat-completions');
        if (protocol === undefined || call.request === null) continue;
        seen.add(protocol.id);
        const summary = protocol.requestSummary(call.request);
        const shown = new Set([...Object.keys(summary.parameters), 'tools']);
        const conversation = Object.keys(call.request).filter((field) => !shown.has(field));
        expect(conversation.length, `${folder.name}: ${conversation.join(', ')}`).toBeLessThanOrEqual(2);
        if (protocol.historyField !== undefined) expect(summary.parameters).not.toHaveProperty(protocol.historyField);
        const offered = call.request['tools'];
        expect(summary.tools).toHaveLength(Array.isArray(offered) ? offered.length : 0);
        for (const tool of summary.tools) expect(tool.name).not.toBe('(unnamed)');
        if (!('error' in call.response) && call.response.status === 200)
          expect(protocol.stopReason(call.response)).toBeTypeOf('string');
      }
    }
    expect([...seen].sort()).toEqual(['anthropic-messages', 'chat-completions', 'openai-responses']);
  });
});
