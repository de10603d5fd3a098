/** The variable each well-known API's key is usually kept in, by host. */
const KEY_VARIABLE_BY_HOST: Readonly<Record<string, string>> = {
  'api.deepseek.com': 'DEEPSEEK_API_KEY',
  'api.openai.com': 'OPENAI_API_KEY',
  'api.anthropic.com': 'ANTHROPIC_API_KEY',
  'generativelanguage.googleapis.com': 'GEMINI_API_KEY',
  'openrouter.ai': 'OPENROUTER_API_KEY',
  'api.groq.com': 'GROQ_API_KEY',
  'api.mistral.ai': 'MISTRAL_API_KEY',
  'api.together.xyz': 'TOGETHER_API_KEY',
  'api.fireworks.ai': 'FIREWORKS_API_KEY',
  'api.x.ai': 'XAI_API_KEY',
};

export const DEFAULT_KEY_VARIABLE = 'DEEPSEEK_API_KEY';

/** Where the key for `baseUrl` is read from: the one named, else the host's usual one, else DEEPSEEK_API_KEY. */
export function apiKeyVariable(baseUrl: string, named?: string): string {
  if (named !== undefined && named !== '') return named;
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return DEFAULT_KEY_VARIABLE;
  }
  return KEY_VARIABLE_BY_HOST[host] ?? DEFAULT_KEY_VARIABLE;
}
