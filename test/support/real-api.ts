import type OpenAI from 'openai';
import { sseFrames, startLoopbackServer, type LoopbackServer } from './loopback-server.js';

/** Stands in for a real model API on loopback: it answers a streamed completion, and counts what reaches it. */
export async function startRealApi(): Promise<LoopbackServer> {
  return startLoopbackServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(sseFrames([{ choices: [{ index: 0, delta: { content: 'from the real API' } }] }]));
  });
}

/** The text of one streamed chat completion through the `openai` SDK. */
export async function streamedText(client: OpenAI): Promise<string> {
  const stream = await client.chat.completions.create({
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}
