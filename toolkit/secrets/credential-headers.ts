import { credentialHeaderNames, credentialQueryNames } from '../protocols/registry.js';
import { MIN_SECRET_LENGTH, type LabelledSecret } from './secret.js';

/**
 * Request headers that carry credentials: every protocol's (`WireProtocol.credentials`) and those
 * of any HTTP API. Never stored; their values are scanned for before anything is written.
 */
export const CREDENTIAL_HEADERS: readonly string[] = [
  ...new Set([
    ...credentialHeaderNames(),
    'authorization',
    'proxy-authorization',
    'api-key',
    'x-api-key',
    'x-goog-api-key',
    'cookie',
  ]),
];

/** The secret values in a request URL's credential query parameters (`?key=`). */
export function credentialQuerySecrets(url: URL): LabelledSecret[] {
  const secrets: LabelledSecret[] = [];
  for (const name of credentialQueryNames()) {
    for (const value of url.searchParams.getAll(name))
      if (value.length >= MIN_SECRET_LENGTH) secrets.push({ value, label: `the ${name} query parameter's value` });
  }
  return secrets;
}

/** The secret values in a request's credential headers: the scheme (`Bearer `) stripped, each cookie's value apart. */
export function credentialSecrets(headers: Headers): LabelledSecret[] {
  const secrets: LabelledSecret[] = [];
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers.get(name);
    if (value === null) continue;
    const label = `the ${name} header's value`;
    const token = /^\s*(?:bearer|basic|token)\s+(.+)$/i.exec(value)?.[1]?.trim() ?? value.trim();
    const parts = name === 'cookie' ? token.split(';').map((pair) => pair.slice(pair.indexOf('=') + 1).trim()) : [];
    for (const part of [token, ...parts]) if (part.length >= MIN_SECRET_LENGTH) secrets.push({ value: part, label });
  }
  return secrets;
}
