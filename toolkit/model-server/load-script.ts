import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { validScript } from '../authored/compile-script.js';
import type { AuthoredScript } from '../authored/types.js';
import { CassetteError } from '../errors/cassette-error.js';

/** Reads a script from `.json`, or from a module's default (or `script`) export, validated (SCRIPT_INVALID naming the file). */
export async function loadScript(file: string, cwd: string = process.cwd()): Promise<AuthoredScript> {
  const path = resolve(cwd, file);
  if (path.endsWith('.json')) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new CassetteError('SCRIPT_INVALID', `Cannot read the script ${path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new CassetteError('SCRIPT_INVALID', `The script ${path} is not valid JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return validScript(value, path);
  }
  let module: { default?: unknown; script?: unknown };
  try {
    module = (await import(pathToFileURL(path).href)) as typeof module;
  } catch (error) {
    const hint = path.endsWith('.ts')
      ? ' A .ts script needs a TypeScript-aware runtime (run nestcast through tsx), or use .json.'
      : '';
    throw new CassetteError('SCRIPT_INVALID', `Cannot load the script ${path}: ${(error as Error).message}.${hint}`, {
      cause: error,
    });
  }
  const script = module.default ?? module.script;
  if (script === undefined)
    throw new CassetteError(
      'SCRIPT_INVALID',
      `The script module ${path} has no default export and no \`script\` export.`,
    );
  return validScript(script, path);
}
