import { DUMMY_MODEL_KEY as DUMMY_KEY } from '../../harness/http/serve-endpoint.js';

/**
 * The environment that points the common clients at the endpoint `baseUrl` (with a dummy key):
 * OpenAI's SDKs and Codex read `OPENAI_BASE_URL` with the `/v1` the real API has; Anthropic's
 * SDKs and Claude Code add `/v1/messages` to `ANTHROPIC_BASE_URL`; Gemini CLI adds its
 * `/v1beta/models/…` to `GOOGLE_GEMINI_BASE_URL`.
 */
export function clientEnv(baseUrl: string): Readonly<Record<string, string>> {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    OPENAI_BASE_URL: `${base}/v1`,
    OPENAI_API_KEY: DUMMY_KEY,
    ANTHROPIC_BASE_URL: base,
    ANTHROPIC_API_KEY: DUMMY_KEY,
    GOOGLE_GEMINI_BASE_URL: base,
    GEMINI_API_KEY: DUMMY_KEY,
  };
}

/** `NAME=value` lines to paste into a shell. */
export function envLines(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([name, value]) => `${name}=${value}\n`)
    .join('');
}
