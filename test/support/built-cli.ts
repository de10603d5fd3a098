import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const REPO = join(import.meta.dirname, '..', '..');
export const BUILT_CLI = join(REPO, 'dist', 'cli.js');
const SOURCES = ['harness', 'providers', 'toolkit'];

/**
 * The built CLI (`dist/cli.js`), built first when it is missing or older than a source file, so a
 * test that drives the product as users run it never tests yesterday's build.
 */
export async function builtCli(): Promise<string> {
  if (!existsSync(BUILT_CLI) || newestSource() > statSync(BUILT_CLI).mtimeMs) {
    await promisify(execFile)('npm', ['run', 'build'], { cwd: REPO, maxBuffer: 16 << 20 });
  }
  return BUILT_CLI;
}

function newestSource(): number {
  let newest = 0;
  for (const top of SOURCES) {
    for (const entry of readdirSync(join(REPO, top), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}
