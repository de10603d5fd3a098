import { keyLikeEnvSecrets } from './key-like-env.js';
import { labelled, MIN_SECRET_LENGTH, type LabelledSecret, type Secret } from './secret.js';

/**
 * Every secret this process has seen: credential header values a recording fetch passed on, the
 * key-like variables replay removed from the environment, credentials cut out of a base URL.
 * Process-wide on purpose: whatever writes a file scans against all of them without having to be
 * handed each one.
 */
const seen = new Map<string, LabelledSecret>();

export function rememberSecret(value: string, label: string): void {
  if (value.length >= MIN_SECRET_LENGTH && !seen.has(value)) seen.set(value, { value, label });
}

/**
 * What a file must not contain: the `given` secrets, every remembered one, and the key-like
 * variables of `env` (default: this process's environment as it is now).
 */
export function knownSecrets(given: readonly Secret[] = [], env: NodeJS.ProcessEnv = process.env): LabelledSecret[] {
  const all = new Map<string, LabelledSecret>();
  for (const secret of [...labelled(given), ...seen.values(), ...keyLikeEnvSecrets(env)])
    if (!all.has(secret.value)) all.set(secret.value, secret);
  return [...all.values()];
}
