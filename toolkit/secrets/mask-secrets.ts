import { findSecret } from './find-secret.js';
import type { LabelledSecret } from './secret.js';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\\\"',
  '\\': '\\\\\\\\',
  '/': '\\\\/',
  '\b': '\\\\b',
  '\f': '\\\\f',
  '\n': '\\\\n',
  '\r': '\\\\r',
  '\t': '\\\\t',
};

const patterns = new Map<string, RegExp>();

/** The secret as written or with any of its characters JSON-escaped (`\u002d`, either hex case). */
function patternFor(value: string): RegExp {
  let pattern = patterns.get(value);
  if (pattern === undefined) {
    const chars = [...value].map((char) => {
      if (char.length > 1) return char.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
      const hex = [...char.charCodeAt(0).toString(16).padStart(4, '0')]
        .map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
        .join('');
      const plain = char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
      const simple = SIMPLE_ESCAPES[char];
      return `(?:${plain}|\\\\u${hex}${simple === undefined ? '' : `|${simple}`})`;
    });
    pattern = new RegExp(chars.join(''), 'g');
    patterns.set(value, pattern);
  }
  return pattern;
}

/** What stands in a printed text for a secret: its label, never a piece of its value. */
export function secretMask(secret: LabelledSecret): string {
  return `[masked: ${secret.label}]`;
}

/**
 * `text` as it may be printed: every secret, as written or JSON-escaped, replaced by its mask. A
 * text that still carries one in a form that cannot be cut out (split across the fragments of a
 * JSON array, as a streamed answer is) is withheld whole, with a line saying why.
 */
export function maskSecrets(text: string, secrets: readonly LabelledSecret[]): string {
  if (secrets.length === 0 || text === '') return text;
  let masked = text;
  // Longest first: a secret that contains another is masked whole.
  for (const secret of [...secrets].sort((a, b) => b.value.length - a.value.length))
    masked = masked.replace(patternFor(secret.value), secretMask(secret));
  if (!/[[{]/.test(masked)) return masked;
  const hit = findSecret([{ where: 'this output', text: masked }], secrets);
  if (hit === undefined) return masked;
  return `[nestcast withheld ${text.length} characters of output: ${hit.secret} appears ${hit.how} in them]${text.endsWith('\n') ? '\n' : ''}`;
}

/**
 * The end of `text` that may be the start of a secret the next write completes: held back until
 * then, so a secret printed in two writes is masked too.
 */
export function secretPrefixAtEnd(text: string, secrets: readonly LabelledSecret[]): number {
  let longest = 0;
  for (const { value } of secrets) {
    for (let length = Math.min(value.length - 1, text.length); length > longest; length -= 1) {
      if (text.endsWith(value.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}
