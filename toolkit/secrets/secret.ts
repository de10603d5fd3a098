/** A value that must never be written; `label` names it in messages (`the DEEPSEEK_API_KEY environment variable`), never the value. */
export type Secret = string | { readonly value: string; readonly label: string };

export interface LabelledSecret {
  readonly value: string;
  readonly label: string;
}

/** Shorter values are placeholders (`x`, `none`, `test`), not keys; scanning for them would refuse ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/** Strings become `secret #1`, `#2`… by position; empty values are dropped. */
export function labelled(secrets: readonly Secret[]): LabelledSecret[] {
  return secrets
    .map((secret, i) => (typeof secret === 'string' ? { value: secret, label: `secret #${i + 1}` } : secret))
    .filter((secret) => secret.value !== '');
}
