import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The `nestcast` command of the installed tarball. */
const CLI = join(import.meta.dirname, '..', 'node_modules', 'nestcast', 'dist', 'cli.js');

export interface ServeProcess {
  readonly url: string;
  /** The environment lines it printed, parsed. */
  readonly env: Readonly<Record<string, string>>;
  /** SIGTERM, then how it ended and everything it printed. */
  stop(): Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>;
}

/**
 * `nestcast serve …args` as a user runs it (the tarball's CLI, a real process), once it has printed
 * its URL and environment lines. The root project's test/support/serve-process.ts is the same over
 * the built sources.
 */
export async function startServeProcess(args: readonly string[], cwd: string): Promise<ServeProcess> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    cwd,
    env: { ...inherited, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // The last line it prints before serving is the dummy Gemini key.
      if (/^GEMINI_API_KEY=.*\n/m.test(stdout)) resolve();
    });
    void ended.then((code) => reject(new Error(`nestcast serve exited ${code} before serving:\n${stderr}`)));
  });
  const [url = '', ...lines] = stdout.trimEnd().split('\n');
  const env = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return {
    url,
    env,
    stop: async () => {
      child.kill('SIGTERM');
      const code = await ended;
      return { code, stdout, stderr };
    },
  };
}
