import { accessSync, constants, openSync, readSync, closeSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { RequestError } from '@agentclientprotocol/sdk';
import type { ChildExit } from './acp-channel.js';
import { quoteHead } from './bounded-output.js';

/** Where the spawn looked: the child's PATH and cwd, to tell "not found" from "found but not runnable". */
export interface SpawnPlace {
  readonly path: string | undefined;
  readonly cwd: string;
}

/** "exited with code 3", "was killed by SIGKILL", "could not be started (spawn x ENOENT: command not found)". */
export function describeExit(exit: ChildExit, command: string, place?: SpawnPlace): string {
  if (exit.spawnError) {
    const code = (exit.spawnError as NodeJS.ErrnoException).code;
    let hint = '';
    if (code === 'ENOENT') {
      const found = place ? locate(command, place) : undefined;
      const interpreter = found ? shebangInterpreter(found) : undefined;
      hint =
        found === undefined
          ? `: command "${command}" not found; check \`command\` and PATH`
          : interpreter !== undefined
            ? `: "${found}" exists but its interpreter ${JSON.stringify(interpreter)} (its #! line) was not found; fix the shebang or start the interpreter as \`command\``
            : `: "${found}" exists but the system could not run it; check its format and interpreter`;
    } else if (code === 'EACCES') hint = `: "${command}" is not executable`;
    return `could not be started (${exit.spawnError.message}${hint})`;
  }
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  return `exited with code ${String(exit.code)}`;
}

/** "; its last stderr lines: a | b", or nothing when stderr is inherited or empty. */
export function stderrSuffix(tail: readonly string[]): string {
  return tail.length === 0 ? '' : `; its last stderr lines: ${quoteHead(tail.join(' | '))}`;
}

/** "error -32603: turn 1 failed (data: {...})": the JSON-RPC error with its `data`, quoted within bounds. */
export function describeRpcError(error: RequestError): string {
  const data = error.data === undefined ? '' : ` (data: ${quoteHead(safeJson(error.data))})`;
  return `error ${error.code}: ${quoteHead(error.message)}${data}`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The file spawn would have run for `command`, if one exists. */
function locate(command: string, place: SpawnPlace): string | undefined {
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolve(place.cwd, command)]
    : (place.path ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, command));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.F_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The interpreter a `#!` line names, or undefined when the file has none. */
function shebangInterpreter(file: string): string | undefined {
  try {
    const fd = openSync(file, 'r');
    const head = Buffer.alloc(256);
    const read = readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    const text = head.subarray(0, read).toString('utf8');
    if (!text.startsWith('#!')) return undefined;
    return text.slice(2).split('\n')[0]?.trim().split(/\s+/)[0];
  } catch {
    return undefined;
  }
}
