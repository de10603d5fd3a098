import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { CLI_ENV } from '../../toolkit/scenarios/locate-cli.js';

const REPO = join(import.meta.dirname, '..', '..');
export const BUILT_CLI = join(REPO, 'dist', 'cli.js');
const SOURCES = ['harness', 'providers', 'toolkit'];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ts|mjs)$/.test(entry.name) && !entry.name.includes('.test.')) {
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/** The package build writes the type declarations first and the JavaScript last (package.json "build"). */
const TYPES = join(REPO, 'dist', 'types', 'toolkit', 'index.d.ts');

function isFresh(): boolean {
  if (!existsSync(BUILT_CLI) || !existsSync(TYPES)) return false;
  const built = statSync(BUILT_CLI).mtimeMs;
  return (
    statSync(join(REPO, 'package.json')).mtimeMs <= built &&
    SOURCES.every((dir) => newestSource(join(REPO, dir)) <= built)
  );
}

/** Resolves once `path` no longer exists (another test file's build finished). */
function removal(path: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(join(path, '..'), () => {
      if (!existsSync(path)) {
        watcher.close();
        resolve();
      }
    });
    if (!existsSync(path)) {
      watcher.close();
      resolve();
    }
  });
}

/**
 * `npm run build` (the package build: declarations and JavaScript) when dist/ is missing or older
 * than a source file or package.json, once across test files running in parallel (a lock folder
 * in the temp dir, keyed by this checkout).
 */
export async function ensureBuiltCli(): Promise<string> {
  if (isFresh()) return BUILT_CLI;
  const lock = join(tmpdir(), `nestcast-build-${createHash('sha256').update(REPO).digest('hex').slice(0, 12)}.lock`);
  try {
    mkdirSync(lock);
  } catch {
    await removal(lock);
    return ensureBuiltCli();
  }
  try {
    await promisify(execFile)('npm', ['run', 'build'], { cwd: REPO });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return BUILT_CLI;
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node dist/cli.js ...args` in `cwd` and collects what it printed and how it ended. */
export function runBuiltCli(
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv },
): Promise<CliResult> & { readonly child: ChildProcess } {
  // Without the test runner's variables: under VITEST the CLI would not register its TypeScript loader.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  const child = spawn(process.execPath, [BUILT_CLI, ...args], {
    cwd: options.cwd,
    env: { ...inherited, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return Object.assign(done, { child });
}

/**
 * For a test file that runs the CLI's sources in-process (`main(['run', …])`, `runScenario`): the
 * nestcast processes they start (run's and record's workers, ACP children) start from the build,
 * built first when stale, instead of from the sources under tsx, which costs about twice the CPU
 * per process. Call at the top level of the file; the variable is put back after the file.
 */
export function childrenFromBuiltCli(): void {
  let before: string | undefined;
  beforeAll(async () => {
    before = process.env[CLI_ENV];
    process.env[CLI_ENV] = await ensureBuiltCli();
  }, 600_000);
  afterAll(() => {
    if (before === undefined) delete process.env[CLI_ENV];
    else process.env[CLI_ENV] = before;
  });
}
