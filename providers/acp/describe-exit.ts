import type { ChildExit } from './acp-child-process.js';

/** "exited with code 3", "was killed by SIGKILL", "could not be started (spawn x ENOENT: command not found)". */
export function describeExit(exit: ChildExit, command: string): string {
  if (exit.spawnError) {
    const code = (exit.spawnError as NodeJS.ErrnoException).code;
    const hint = code === 'ENOENT' ? `: command "${command}" not found; check \`command\` and PATH` : code === 'EACCES' ? `: "${command}" is not executable` : '';
    return `could not be started (${exit.spawnError.message}${hint})`;
  }
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  return `exited with code ${String(exit.code)}`;
}

/** "; its last stderr lines: a | b", or nothing when stderr is inherited or empty. */
export function stderrSuffix(tail: readonly string[]): string {
  return tail.length === 0 ? '' : `; its last stderr lines: ${tail.join(' | ')}`;
}
