import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../../../test/support/loopback-server.js';
import type { RecordedResponse, StreamedResponse } from '../../exchange/recorded-response.js';
import { serveRecorded } from '../testing/serve-recorded.js';
import type { WireErrorResponse } from '../wire-protocol.js';
import { anthropicMessages } from './anthropic-messages.js';

let server: LoopbackServer | undefined;
afterEach(async () => server?.close());

async function clientServing(answer: RecordedResponse | WireErrorResponse): Promise<Anthropic> {
  server = await startLoopbackServer((_request, response) => serveRecorded(answer, response));
  return new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 3 });
}

const turn = {
  reasoning: 'The child should count.',
  text: 'Starting a child.',
  toolCalls: [{ name: 'run_child', args: { task: 'count the files', depth: 2 } }],
};
const context = (stream: boolean) => ({
  stream,
  model: 'claude-test',
  toolCallIds: ['toolu_child_1'],
  answerId: 'nestcast_1',
  eventDelay: 0,
});
const params = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user' as const, content: 'Go.' }] };

describe('the Anthropic SDK (@anthropic-ai/sdk)', () => {
  it('reads a rendered JSON answer: thinking with its signature, text and the tool_use input', async () => {
    const client = await clientServing(anthropicMessages.render(turn, context(false)));
    const message = await client.messages.create(params);
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'The child should count.', signature: expect.any(String) },
      { type: 'text', text: 'Starting a child.' },
      { type: 'tool_use', id: 'toolu_child_1', name: 'run_child', input: { task: 'count the files', depth: 2 } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('assembles a rendered stream into the same message', async () => {
    const client = await clientServing(anthropicMessages.render(turn, context(true)) as StreamedResponse);
    const message = await client.messages.stream(params).finalMessage();
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'The child should count.', signature: expect.any(String) },
      { type: 'text', text: 'Starting a child.' },
      { type: 'tool_use', id: 'toolu_child_1', name: 'run_child', input: { task: 'count the files', depth: 2 } },
    ]);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it('throws the nestcast error at once, without retrying, streamed or not', async () => {
    const client = await clientServing(
      anthropicMessages.errorResponse('REQUEST_MISMATCH', 'the run took a different path'),
    );
    await expect(client.messages.create(params)).rejects.toThrow(/REQUEST_MISMATCH: the run took a different path/);
    await expect(client.messages.stream(params).finalMessage()).rejects.toThrow(/REQUEST_MISMATCH/);
    expect(server?.requests).toHaveLength(2);
  });
});
