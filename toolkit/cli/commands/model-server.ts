import { loadScript } from '../../model-server/load-script.js';
import { startModelServer, type ModelServer } from '../../model-server/model-server.js';
import { UsageError, type Command } from '../command.js';
import { parseCommandLine } from '../parse.js';

const MODEL_SERVER_HELP = `Usage: nestcast model-server --script <file.json|file.ts> [--port N] [--host H]

Serves an authored script as a loopback model for every API nestcast knows, by path
(POST <url>/chat/completions, POST <url>/responses): each call gets the scripted turn of its
session (the x-session-lineage header, else derived from its content) in that API's wire form.
Prints the URL on stdout, then serves until stopped (Ctrl-C).

Options:
  --script <file>  the script: JSON, or a module whose default export is the script
  --port <N>       port to listen on (default: a free one)
  --host <H>       address to bind (default: 127.0.0.1)
  --help           show this help
`;

export const modelServerCommand: Command = {
  name: 'model-server',
  summary: 'Serve authored scripts as a loopback OpenAI-compatible model',
  help: MODEL_SERVER_HELP,
  async run(argv, io) {
    const server = await startModelServerFrom(argv, io.stdout, io.cwd);
    // Serves until the process is told to stop.
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.close();
    return 0;
  },
};

/** Starts the server the options describe and prints its URL. */
export async function startModelServerFrom(
  argv: readonly string[],
  out: (text: string) => void,
  cwd: string,
): Promise<ModelServer> {
  const { values, positionals } = parseCommandLine(argv, {
    script: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  if (values.script === undefined) throw new UsageError('--script <file> is required');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  const scripts = await loadScript(values.script, cwd);
  const server = await startModelServer({ scripts, port, ...(values.host === undefined ? {} : { host: values.host }) });
  out(`${server.url}\n`);
  return server;
}
