import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeError } from '../../harness/error-text.js';
import { checkFactory } from './factory-keys.js';
import { FuzzError } from './fuzz-error.js';
import type { ProviderFactory } from './types.js';

/** Whether `--provider <value>` names a module file rather than a built-in provider. */
export function looksLikeModule(value: string): boolean {
  return value.startsWith('file:') || value.includes('/') || value.includes('\\') || /\.[cm]?[jt]s$/.test(value);
}

/**
 * Loads a user's provider factory from a module: its default export (or an export named
 * `factory`) must be a `ProviderFactory`, an object with a string `name` and a `create` function.
 * A `.ts` module needs a TypeScript-aware loader (e.g. `npx tsx`); plain Node takes `.js`/`.mjs`.
 */
export async function loadProviderModule(specifier: string): Promise<ProviderFactory> {
  const url = specifier.startsWith('file:') ? new URL(specifier) : pathToFileURL(resolve(specifier));
  if (!existsSync(url)) {
    throw new FuzzError(
      'INVALID_PROVIDER_MODULE',
      `provider module ${JSON.stringify(specifier)} does not exist (resolved to ${url.pathname}); pass a built-in provider name or the path of a module exporting a ProviderFactory`,
    );
  }
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(url.href)) as Record<string, unknown>;
  } catch (error) {
    throw new FuzzError(
      'INVALID_PROVIDER_MODULE',
      `cannot load provider module ${JSON.stringify(specifier)}: ${describeError(error)}`,
      { cause: error },
    );
  }
  const factory = loaded['default'] ?? loaded['factory'];
  if (!isFactory(factory)) {
    throw new FuzzError(
      'INVALID_PROVIDER_MODULE',
      `provider module ${JSON.stringify(specifier)} must export a ProviderFactory as its default export (or as "factory"): an object with a string "name" and a "create(context)" function; it exports ${Object.keys(loaded).join(', ') || 'nothing'}`,
    );
  }
  checkFactory(factory);
  return factory;
}

function isFactory(value: unknown): value is ProviderFactory {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ProviderFactory).name === 'string' &&
    typeof (value as ProviderFactory).create === 'function'
  );
}
