import { describe, expect, test } from 'vitest';
import { createReplayingFetch } from '../replay/replaying-fetch.js';
import { chatBody, chatRequest, textStream, sampleCassette } from '../cassette/testing/sample-cassette.js';
import { createNormaliser } from './normaliser.js';

describe('normalisation rules', () => {
  test('replace rewrites every match in every string value; drop removes what a path names, [*] and * included', () => {
    const normaliser = createNormaliser({
      rules: [
        { replace: 'run-[0-9]+', with: 'run-<n>' },
        { drop: 'metadata.thread_id' },
        { drop: 'messages[*].content[*].id' },
        { drop: 'tools[0].*' },
      ],
    });
    const out = normaliser.apply({
      metadata: { thread_id: 't-1', keep: 'run-12 and run-7' },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi run-3', id: 'x' }] }],
      tools: [{ a: 1, b: 2 }, { c: 3 }],
    });
    expect(out).toEqual({
      metadata: { keep: 'run-<n> and run-<n>' },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi run-<n>' }] }],
      tools: [{}, { c: 3 }],
    });
    expect(normaliser.apply(out)).toEqual(out);
    expect(normaliser.unused()).toEqual([]);
  });

  test('the hook runs after the declarative rules, and the result is canonical', () => {
    const normaliser = createNormaliser({
      rules: [{ drop: 'user' }],
      hook: (request) => ({ z: 1, ...request, seed: 0 }),
    });
    expect(JSON.stringify(normaliser.apply({ user: 'u-1', model: 'm' }))).toBe('{"model":"m","seed":0,"z":1}');
  });

  test('replay applies the cassette rules and a hook from options to live and recorded requests alike', async () => {
    const cassette = {
      ...sampleCassette(),
      normalise: [{ replace: 'at \\d\\d:\\d\\d', with: 'at <time>' }],
      calls: {
        main: [
          {
            request: chatRequest([{ role: 'user', content: 'wake me at 07:30' }], { user: 'abc' }),
            response: textStream(['ok']),
          },
        ],
      },
    };
    const fetch = createReplayingFetch(cassette, { normalise: { hook: ({ user: _user, ...rest }) => rest } });
    const response = await fetch('http://127.0.0.1:9/chat/completions', {
      method: 'POST',
      headers: { 'x-session-lineage': 'main' },
      body: chatBody([{ role: 'user', content: 'wake me at 09:45' }], { user: 'xyz' }),
    });
    expect(response.status).toBe(200);
    fetch.assertConsumed();
    expect(fetch.report().unusedRules).toEqual([]);
  });
});
