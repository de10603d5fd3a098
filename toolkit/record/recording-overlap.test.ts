import type { ServerResponse } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../../test/support/loopback-server.js';
import type { AuthoredReply } from '../authored/types.js';
import { formatSseEvent } from '../exchange/sse-format.js';
import { chatCompletions } from '../protocols/chat-completions/chat-completions.js';
import { createRecordingFetch } from './recording-fetch.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A chat-completions stream for `turn`, written whole. */
function answer(res: ServerResponse, turn: AuthoredReply, ids: string[] = []): void {
  const rendered = chatCompletions.render(turn, {
    stream: true,
    model: 'm',
    toolCallIds: ids,
    answerId: 'x',
    eventDelay: 0,
  });
  if (!('events' in rendered)) throw new Error('expected a stream');
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(`${rendered.events.map(formatSseEvent).join('')}data: [DONE]\n\n`);
}

const body = (messages: object[]): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', stream: true, messages }),
});

test('recording adds no wait: sibling children reach the server together, as they do without nestcast, and each is filed under its tool call', async () => {
  /** Children held until both are in flight: a recorder that queued the second behind the first never gets an answer. */
  const held: (() => void)[] = [];
  server = await startLoopbackServer((request, res) => {
    const prompt = JSON.stringify(JSON.parse(request.body));
    if (prompt.includes('Research: ')) {
      const topic = prompt.includes('tides') ? 'tides' : 'winds';
      held.push(() => answer(res, { text: `About ${topic}.` }));
      if (held.length === 2) for (const release of held) release();
      return;
    }
    if (prompt.includes('"role":"tool"')) return answer(res, { text: 'Both done.' });
    answer(
      res,
      {
        toolCalls: [
          { name: 'research', args: { topic: 'tides' } },
          { name: 'research', args: { topic: 'winds' } },
        ],
      },
      ['call_tides', 'call_winds'],
    );
  });
  const recorder = createRecordingFetch();
  const url = `${server.url}/v1/chat/completions`;
  const system = { role: 'system', content: 'Plan.' };
  const ask = { role: 'user', content: 'Sail?' };
  await (await recorder(url, body([system, ask]))).text();
  const children = await Promise.all(
    ['tides', 'winds'].map(async (topic) => {
      const response = await recorder(url, body([{ role: 'user', content: `Research: ${topic}` }]));
      return response.text();
    }),
  );
  expect(children.map((text) => text.includes('About'))).toEqual([true, true]);
  const calls = (id: string, args: string) => ({
    id,
    type: 'function',
    function: { name: 'research', arguments: args },
  });
  await (
    await recorder(
      url,
      body([
        system,
        ask,
        {
          role: 'assistant',
          content: null,
          tool_calls: [calls('call_tides', '{"topic":"tides"}'), calls('call_winds', '{"topic":"winds"}')],
        },
        { role: 'tool', tool_call_id: 'call_tides', content: 'About tides.' },
        { role: 'tool', tool_call_id: 'call_winds', content: 'About winds.' },
      ]),
    )
  ).text();
  const cassette = await recorder.cassette();
  expect(Object.keys(cassette.calls).sort()).toEqual(['main', 'main/call_tides', 'main/call_winds']);
  const winds = JSON.stringify(cassette.calls['main/call_winds']);
  expect(winds).toContain('Research: winds');
  expect(winds).toContain('winds.');
  expect(winds).not.toContain('tides');
  expect(cassette.calls['main']).toHaveLength(2);
});
