import { parseArgs } from 'node:util';
import { UsageError } from '../cli/command.js';
import { loadScript } from './load-script.js';
import { startModelServer, type ModelServer } from './model-server.js';

export const MODEL_SERVER_HELP = `Usage: nestcast model-server --script <file.json|file.ts> [--port N] [--host H]

Serves an authored script as a loopback OpenAI-compatible model: POST <url>/chat/completions
streams the scripted turns of the session named by the x-session-lineage header (default main).
Prints the URL on stdout, then serves until stopped (Ctrl-C).

Options:
  --script <file>  the script: JSON, or a module whose default export is the script
  --port <N>       port to listen on (default: a free one)
  --host <H>       address to bind (default: 127.0.0.1)
  --help           show this help
`;

/** `nestcast model-server`: starts the server and prints its URL; resolves with it (undefined for --help). */
export async function modelServerMain(
  argv: readonly string[],
  out: (text: string) => void = (text) => void process.stdout.write(text),
  cwd: string = process.cwd(),
): Promise<ModelServer | undefined> {
  let values: { script?: string; port?: string; host?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { script: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    out(MODEL_SERVER_HELP);
    return undefined;
  }
  if (values.script === undefined) throw new UsageError('--script <file> is required');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  const scripts = await loadScript(values.script, cwd);
  const server = await startModelServer({ scripts, port, ...(values.host === undefined ? {} : { host: values.host }) });
  out(`${server.url}\n`);
  return server;
}
