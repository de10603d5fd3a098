import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The child sees no vitest worker of ours, no key, and no colour codes: a newcomer's terminal. */
export function newcomerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', CI: '1' };
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(VITEST|NODE_OPTIONS$|TSX)|_API_KEY$|_TOKEN$|_SECRET$|^FORCE_COLOR$/.test(name)) continue;
    env[name] = value;
  }
  return env;
}

/** Runs `command` in `cwd` as a newcomer would; its output, or an error carrying all of it. */
export async function sh(
  cwd: string,
  command: string,
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd,
      env: { ...newcomerEnv(), ...extraEnv },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout + stderr;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `\`${command} ${args.join(' ')}\` failed in ${cwd}:\n${failed.stdout ?? ''}${failed.stderr ?? failed.message}`,
      { cause: error },
    );
  }
}

/** Runs `command` in `cwd` as a newcomer would, expecting it to fail: its exit code and all it printed. */
export async function failedRun(
  cwd: string,
  command: string,
  args: string[],
): Promise<{ exitCode: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env: newcomerEnv(), maxBuffer: 16 * 1024 * 1024 });
    throw new Error(
      `\`${command} ${args.join(' ')}\` succeeded in ${cwd}, where it should have failed:\n${stdout}${stderr}`,
    );
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { exitCode: failed.code, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}
