import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How to start this nestcast's own CLI as a child process: the built `dist/cli.js` with plain
 * node, or, when running from the TypeScript sources (tests), `toolkit/cli/bin.ts` through tsx.
 */
export function nestcastCliCommand(): { command: string; args: string[] } {
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
  throw new Error(`cannot find the nestcast CLI near ${fileURLToPath(import.meta.url)}`);
}
