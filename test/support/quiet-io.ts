import type { CliIo } from '../../toolkit/cli/io.js';

/** The CLI's io for a test that reads its results from files: output dropped, no colour, run from `cwd`. */
export function quietIo(cwd: string): CliIo {
  return { stdout: () => undefined, stderr: () => undefined, env: { NO_COLOR: '1' }, cwd, color: false };
}
