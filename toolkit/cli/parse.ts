import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, strict, with its errors turned into usage errors the user can act on. */
export function parseCommandLine<O extends Options>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? error.message.replace(/\. To specify a positional argument.*$/s, '') : String(error),
    );
  }
}
