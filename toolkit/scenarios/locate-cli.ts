import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScenarioError } from './scenario-error.js';

/**
 * A built `cli.js` every nestcast child process (run's and record's workers, ACP children) starts
 * from, instead of the one found beside this module. The repository's tests that run the CLI's
 * sources in-process set it to the build (test/support/built-cli.ts): a worker started from the
 * sources under tsx costs about twice the CPU of a built one.
 */
export const CLI_ENV = 'NESTCAST_CLI';

/**
 * How to start this nestcast's own CLI as a child process: `NESTCAST_CLI` when set, else the built
 * `dist/cli.js` with plain node, or, when running from the TypeScript sources (tests),
 * `toolkit/cli/bin.ts` through tsx.
 */
export function nestcastCliCommand(env: NodeJS.ProcessEnv = process.env): { command: string; args: string[] } {
  const chosen = env[CLI_ENV];
  if (chosen !== undefined) return { command: process.execPath, args: [builtCli(chosen)] };
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 5; up++) {
    const built = join(dir, 'cli.js');
    if (existsSync(built) && dir.endsWith('dist')) return { command: process.execPath, args: [built] };
    const source = join(dir, 'toolkit', 'cli', 'bin.ts');
    // Absolute: the child runs in the session's cwd, where a bare `tsx` would not resolve.
    if (existsSync(source))
      return { command: process.execPath, args: ['--import', import.meta.resolve('tsx'), source] };
    dir = dirname(dir);
  }
  throw new ScenarioError(
    'CLI_NOT_FOUND',
    `Cannot find the nestcast CLI near ${fileURLToPath(import.meta.url)}: neither a built dist/cli.js nor ` +
      `toolkit/cli/bin.ts is there. Reinstall nestcast (or run npm run build in its clone), or set ${CLI_ENV} to a built cli.js.`,
  );
}

function builtCli(path: string): string {
  if (isAbsolute(path) && basename(path) === 'cli.js' && existsSync(path)) return path;
  throw new ScenarioError(
    'CLI_NOT_FOUND',
    `${CLI_ENV} is "${path}", which is not the absolute path of an existing built nestcast cli.js ` +
      `(dist/cli.js after npm run build): set it to one, or unset it to start the CLI found beside nestcast's own files`,
  );
}
