import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../../../test/support/loopback-server.js';
import type { CassetteCall } from '../../cassette/types.js';
import { CassetteError } from '../../errors/cassette-error.js';
import { planExport } from '../../interop/export-target.js';
import { wireExchange } from '../../interop/wire-exchange.js';
import { createRecordingFetch } from '../../record/recording-fetch.js';
import { createReplayingFetch } from '../../replay/replaying-fetch.js';
import { serveRecorded } from '../testing/serve-recorded.js';
import { gemini } from './gemini.js';

const answer = gemini.render(
  { text: 'Paris.', toolCalls: [] },
  { stream: false, model: 'gemini-2.5-flash', toolCallIds: [], answerId: 'a1', eventDelay: 0 },
);
const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Capital of France?' }] }] });
const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
const pathOf = (model: string, key: string) => `/v1beta/models/${model}:generateContent?key=${key}`;

const streamedAnswer = gemini.render(
  { text: 'Paris.', toolCalls: [] },
  { stream: true, model: 'gemini-2.5-flash', toolCallIds: [], answerId: 'a1', eventDelay: 0 },
);
let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer((request, response) =>
    serveRecorded(request.path.includes(':streamGenerateContent') ? streamedAnswer : answer, response),
  );
});
afterAll(async () => server.close());

async function recorded() {
  const recording = createRecordingFetch();
  await (await recording(`${server.url}${pathOf('gemini-2.5-flash', 'AIza-recorded-key')}`, init)).text();
  return recording.cassette();
}

describe('a Gemini call, whose model is named by its URL', () => {
  it('stores the model from the URL with the request, and never the key in its query', async () => {
    const cassette = await recorded();
    expect(cassette.calls['main']?.[0]?.request).toMatchObject({ $url: { model: 'gemini-2.5-flash' } });
    expect(JSON.stringify(cassette)).not.toContain('AIza-recorded-key');
  });

  it('names that model in the recording’s provenance', async () => {
    expect((await recorded()).provenance.model).toBe('gemini-2.5-flash');
  });

  it('replays under another key, which is never compared', async () => {
    const replay = createReplayingFetch(await recorded(), { failures: 'reject' });
    const response = await replay(`http://model.nestcast.invalid${pathOf('gemini-2.5-flash', 'AIza-other')}`, init);
    expect(await response.json()).toMatchObject({ candidates: [{ content: { parts: [{ text: 'Paris.' }] } }] });
    replay.assertConsumed();
  });

  it('fails strict replay with REQUEST_MISMATCH naming both models when only the URL model changed', async () => {
    const replay = createReplayingFetch(await recorded(), { failures: 'reject' });
    const failure = await replay(`http://model.nestcast.invalid${pathOf('gemini-2.5-pro', 'AIza-x')}`, init).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CassetteError);
    expect((failure as CassetteError).code).toBe('REQUEST_MISMATCH');
    expect((failure as CassetteError).message).toMatch(/\$url\.model[\s\S]*gemini-2\.5-flash[\s\S]*gemini-2\.5-pro/);
  });

  it('is exported under its real model path, with the body it was sent with', async () => {
    const cassette = await recorded();
    const [exported] = planExport(cassette, 'https://generativelanguage.googleapis.com').calls;
    expect(exported?.url.href).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
    );
    const wire = wireExchange(cassette.calls['main']?.[0] as CassetteCall);
    expect('requestBody' in wire && JSON.parse(wire.requestBody)).toEqual(JSON.parse(body));
  });

  it('is exported streamed under :streamGenerateContent?alt=sse with the body it was sent with, no stream field added', async () => {
    const recording = createRecordingFetch();
    const path = '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=AIza-k';
    await (await recording(`${server.url}${path}`, init)).text();
    const cassette = await recording.cassette();
    const [exported] = planExport(cassette, 'https://generativelanguage.googleapis.com').calls;
    expect(exported?.url.href).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    const wire = wireExchange(cassette.calls['main']?.[0] as CassetteCall);
    expect('requestBody' in wire && JSON.parse(wire.requestBody)).toEqual(JSON.parse(body));
  });
});
