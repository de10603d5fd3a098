/** Request headers that carry credentials. Never stored; their values are scanned for before saving. */
export const CREDENTIAL_HEADERS: readonly string[] = ['authorization', 'api-key', 'x-api-key', 'proxy-authorization'];

/** Shorter header values are placeholders (`x`, `none`), not keys; scanning for them would match ordinary text. */
const MIN_CREDENTIAL_LENGTH = 8;

/** The secret values in a request's credential headers, the scheme (`Bearer `) stripped. */
export function credentialSecrets(headers: Headers): { value: string; label: string }[] {
  const secrets: { value: string; label: string }[] = [];
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers.get(name);
    if (value === null) continue;
    const token = /^\s*(?:bearer|basic|token)\s+(.+)$/i.exec(value)?.[1]?.trim() ?? value;
    if (token.length >= MIN_CREDENTIAL_LENGTH) secrets.push({ value: token, label: `the ${name} header's value` });
  }
  return secrets;
}
