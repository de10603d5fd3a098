import { resolve } from 'node:path';
import { loadScript } from '../../model-server/load-script.js';
import { envLines } from '../../serve/client-env.js';
import { NORMALISE_PRESETS } from '../../serve/normalise-presets.js';
import { startModelServer, type ModelServer, type ModelServerOptions } from '../../serve/start-model-server.js';
import { summaryText } from '../../serve/summary-text.js';
import { UsageError, type Command } from '../command.js';
import type { CliIo } from '../io.js';
import { parseCommandLine } from '../parse.js';

const presetNames = Object.keys(NORMALISE_PRESETS).join(', ');

const SERVE_HELP = `Usage: nestcast serve --script <file.json|file.ts> [--port N] [--host H]
       nestcast serve --recording <dir> [--port N] [--host H]
       nestcast serve --record <dir> --upstream <url> [--api-key-env NAME] [--port N] [--host H]

A loopback model endpoint for any process: point its base URL here and give it a dummy key.
Serves OpenAI chat completions and Responses, Anthropic Messages and Gemini, each at its own
API's path under <url>. Each call is filed under the session the caller names (the path prefix
<url>/lineage/<name>/…, the name percent-encoded, or the x-session-lineage header); a call
that names none is placed by its content, as replay places it.

Modes:
  --script <file>       serve an authored script: JSON, or a module whose default export is it
  --recording <dir>     replay a recording, keyless: strict matching, the first divergence shown
  --record <dir>        forward each call to --upstream, stream the answer back as it arrives,
                        and save the recording to <dir> when stopped (scanned for secrets first;
                        not saved if the upstream was down or refused the key)

Options:
  --upstream <url>      record mode: the real API's base URL (https://api.openai.com)
  --api-key-env <NAME>  record mode: the environment variable holding the key; it replaces the
                        caller's dummy key on the way out and is never stored
  --forward-lineage     record mode: send each call's session upstream (an upstream nestcast serve)
  --normalise <preset>  record mode: normalisation rules for what a program changes on every run,
                        saved with the recording so replay applies them: ${presetNames}
  --port <N>            port to listen on (default: a free one)
  --host <H>            address to bind (default: 127.0.0.1)
  --help                show this help

Prints the URL and the environment lines to paste (OPENAI_BASE_URL=…, ANTHROPIC_BASE_URL=…,
GOOGLE_GEMINI_BASE_URL=…, dummy keys), then serves until stopped (Ctrl-C, SIGTERM).
POST <url>/__nestcast/reset starts a fresh round (every cursor back to the start) between tests.
On stop it prints what each session consumed, and exits 1 if a call failed to match, a recorded
call was never asked for, or a recording could not be saved.
`;

export const serveCommand: Command = {
  name: 'serve',
  summary: 'A loopback model endpoint for any process: serve a script, replay or record',
  help: SERVE_HELP,
  async run(argv, io) {
    const server = await startServeFrom(argv, io);
    return untilStopped(server, io);
  },
};

/** Serves until SIGINT or SIGTERM, then prints the summary; the exit code says whether everything matched. */
export async function untilStopped(server: ModelServer, io: CliIo): Promise<number> {
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const summary = await server.close();
  (summary.ok ? io.stdout : io.stderr)(summaryText(summary));
  return summary.ok ? 0 : 1;
}

/** Starts the endpoint the flags describe and prints its URL and environment lines. */
export async function startServeFrom(
  argv: readonly string[],
  io: Pick<CliIo, 'stdout' | 'cwd' | 'env'>,
): Promise<ModelServer> {
  const { values, positionals } = parseCommandLine(argv, {
    script: { type: 'string' },
    recording: { type: 'string' },
    record: { type: 'string' },
    upstream: { type: 'string' },
    'api-key-env': { type: 'string' },
    'forward-lineage': { type: 'boolean' },
    normalise: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const modes = (['script', 'recording', 'record'] as const).filter((mode) => values[mode] !== undefined);
  if (modes.length !== 1) {
    throw new UsageError(
      modes.length === 0
        ? 'name a mode: --script <file>, --recording <dir> or --record <dir> --upstream <url>'
        : `name one mode, not ${modes.map((mode) => `--${mode}`).join(' and ')}`,
    );
  }
  const recordOnly = (['upstream', 'api-key-env', 'forward-lineage', 'normalise'] as const).find(
    (flag) => values[flag] !== undefined && values.record === undefined,
  );
  if (recordOnly !== undefined) throw new UsageError(`--${recordOnly} is for record mode (--record <dir>) only`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535)
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  const listening = { port, ...(values.host === undefined ? {} : { host: values.host }) };
  const options: ModelServerOptions =
    values.script !== undefined
      ? { ...listening, scripts: await loadScript(values.script, io.cwd), source: `the script ${values.script}` }
      : values.recording !== undefined
        ? { ...listening, recording: resolve(io.cwd, values.recording) }
        : { ...listening, ...recordOptions(values, io.env, io.cwd) };
  const server = await startModelServer(options);
  io.stdout(`${server.url}\n${envLines(server.env)}`);
  return server;
}

function recordOptions(
  values: {
    record?: string;
    upstream?: string;
    'api-key-env'?: string;
    'forward-lineage'?: boolean;
    normalise?: string;
  },
  env: NodeJS.ProcessEnv,
  cwd: string,
): ModelServerOptions {
  if (values.upstream === undefined)
    throw new UsageError('--record needs --upstream <url>: the real API to forward to');
  let upstream: URL;
  try {
    upstream = new URL(values.upstream);
  } catch {
    throw new UsageError(`--upstream must be an http(s) URL, got "${values.upstream}"`);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new UsageError(`--upstream must be an http(s) URL, got "${values.upstream}"`);
  const keyName = values['api-key-env'];
  const apiKey = keyName === undefined ? undefined : env[keyName];
  if (keyName !== undefined && (apiKey === undefined || apiKey === ''))
    throw new UsageError(`--api-key-env ${keyName}: the environment has no ${keyName}; export the key there first`);
  const preset = values.normalise;
  const rules = preset === undefined ? undefined : NORMALISE_PRESETS[preset];
  if (preset !== undefined && rules === undefined)
    throw new UsageError(`--normalise: no preset "${preset}"; the presets are ${presetNames}`);
  return {
    ...(rules === undefined ? {} : { normalise: { rules } }),
    record: resolve(cwd, values.record as string),
    upstream: values.upstream,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(values['forward-lineage'] === true ? { forwardLineage: true } : {}),
  };
}
