import { describe, expect, test } from 'vitest';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import { erasingRuleProblem } from '../normalisation/erasing-rules.js';
import { PROTOCOLS } from './registry.js';

const TEXT = 'What is the weather in Paris?';

describe('each wire protocol’s probe request', () => {
  test.each(PROTOCOLS.map((protocol) => [protocol.title, protocol] as const))(
    '%s: is a request of that API, claimed by it, whose newest message is the user saying the text',
    (_title, protocol) => {
      const body = protocol.probe(TEXT) as CanonicalRequest;
      const url = new URL(protocol.endpoint(body, false), 'http://model.test/');
      expect(protocol.matches({ method: 'POST', url, body })).toBe(true);
      expect(protocol.conversation(body).messages.at(-1)).toMatchObject({ role: 'user', text: TEXT });
    },
  );

  test('a rule that erases what the user said in only one API’s shape is refused', () => {
    expect(erasingRuleProblem([{ replace: 'Paris', with: 'x' }])).toBeUndefined();
    expect(erasingRuleProblem([{ drop: 'contents' }])).toMatch(/differ only in what the user said/);
    expect(erasingRuleProblem([{ drop: 'input' }])).toMatch(/differ only in what the user said/);
  });
});
