import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestName } from '../../harness/closest-name.js';
import { UsageError } from './command.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs, strict, with its errors turned into usage errors the user can act on: a
 * misspelt option names the one it was closest to.
 */
export function parseCommandLine<O extends Options>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    if (!(error instanceof Error)) throw new UsageError(String(error));
    const message = error.message.replace(/\. To specify a positional argument.*$/s, '');
    const unknown = /^Unknown option '(--[^'=]+)/.exec(message)?.[1];
    const meant =
      unknown === undefined
        ? undefined
        : closestName(
            unknown,
            Object.keys(options).map((name) => `--${name}`),
          );
    throw new UsageError(meant === undefined ? message : `${message}; did you mean ${meant}?`);
  }
}
