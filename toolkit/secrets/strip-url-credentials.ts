import { rememberSecret } from './known-secrets.js';

/**
 * A base URL as it may be stored: without `user:pass@` and without a query string or fragment
 * (`?token=`, `?key=`). What was cut is remembered as a secret, so no file carries it elsewhere.
 */
export function stripUrlCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.username !== '') rememberSecret(decodeURIComponent(parsed.username), 'the user name in the base URL');
  if (parsed.password !== '') rememberSecret(decodeURIComponent(parsed.password), 'the password in the base URL');
  for (const [name, value] of parsed.searchParams) rememberSecret(value, `the ${name} parameter of the base URL`);
  const clean = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  return url.endsWith('/') || parsed.pathname !== '/' ? clean : clean.replace(/\/$/, '');
}
