import { describe, expect, it } from 'vitest';
import { httpStatusError } from './http-status-error.js';

const failure = (headers: Record<string, string>) => ({
  source: 'POST http://127.0.0.1:1/chat/completions',
  status: 422,
  headers: new Headers(headers),
  body: '{"error":{"message":"Model call 1 of session \\"main\\" does not match"}}',
  keySent: false,
  model: 'deepseek-v4-flash',
});

describe('the advice on a rejected request', () => {
  it('names the model, the base URL and the messages when a server rejected the request', () => {
    expect(httpStatusError(failure({})).message).toContain('check the model name (deepseek-v4-flash)');
  });

  it('gives no server advice when nestcast’s replay refused the call, and names the refusal', () => {
    const error = httpStatusError(failure({ 'x-nestcast-error': 'REQUEST_MISMATCH' }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).not.toMatch(/model name|base URL/);
    expect(error.message).toContain("nestcast's replay refused this call (REQUEST_MISMATCH)");
  });
});
