import type { ModelServer } from '../../serve/start-model-server.js';
import { UsageError, type Command } from '../command.js';
import { startServeFrom, untilStopped } from './serve.js';

const MODEL_SERVER_HELP = `Usage: nestcast model-server --script <file.json|file.ts> [--port N] [--host H]

Alias of \`nestcast serve --script\`, kept for scripts written before serve: serves an authored
script as a loopback model endpoint. See \`nestcast serve --help\` for how sessions are named,
POST <url>/__nestcast/reset, what it prints and its exit code.

Options:
  --script <file>  the script: JSON, or a module whose default export is the script
  --port <N>       port to listen on (default: a free one)
  --host <H>       address to bind (default: 127.0.0.1)
  --help           show this help
`;

export const modelServerCommand: Command = {
  name: 'model-server',
  summary: 'Alias of `serve --script`: serve an authored script as a loopback model',
  help: MODEL_SERVER_HELP,
  async run(argv, io) {
    const server = await startModelServerFrom(argv, io.stdout, io.cwd);
    return untilStopped(server, io);
  },
};

/** `serve --script`, refusing the other modes: prints the URL and the environment lines. */
export async function startModelServerFrom(
  argv: readonly string[],
  out: (text: string) => void,
  cwd: string,
): Promise<ModelServer> {
  if (!argv.includes('--script') && !argv.some((arg) => arg.startsWith('--script=')))
    throw new UsageError('--script <file> is required');
  return startServeFrom(argv, { stdout: out, cwd, env: {} });
}
