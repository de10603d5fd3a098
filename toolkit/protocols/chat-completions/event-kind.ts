import { isObject, parseJson } from '../json-fields.js';
import type { StreamPhase } from '../wire-protocol.js';

/** What one chunk carried: thinking, words, or tool-call fragments (role-only and usage chunks carry none). */
export function chatEventKind(event: { readonly data: string }): StreamPhase | undefined {
  if (event.data === '[DONE]') return undefined;
  const chunk = parseJson(event.data);
  const choices = isObject(chunk) ? chunk['choices'] : undefined;
  const choice = Array.isArray(choices) ? choices[0] : undefined;
  const delta = isObject(choice) ? choice['delta'] : undefined;
  if (!isObject(delta)) return undefined;
  const reasoning = delta['reasoning_content'];
  if (typeof reasoning === 'string' && reasoning !== '') return 'reasoning';
  const calls = delta['tool_calls'];
  if (Array.isArray(calls) && calls.length > 0) return 'tool-call';
  const content = delta['content'];
  if (typeof content === 'string' && content !== '') return 'text';
  return undefined;
}
