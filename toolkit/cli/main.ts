import { describeError } from '../../harness/error-text.js';
import { checkNestcastVariables } from '../environment/nestcast-variables.js';
import { closestName } from '../../harness/closest-name.js';
import { UsageError, type Command } from './command.js';
import { paint, processIo, type CliIo } from './io.js';
import { NESTCAST_VERSION } from './version.js';

/** Commands load lazily: `acp-agent` is started per child and must not pay for the rest of the toolkit. */
const COMMANDS: readonly {
  readonly name: string;
  readonly summary: string;
  readonly hidden?: true;
  readonly load: () => Promise<Command>;
}[] = [
  {
    name: 'run',
    summary: 'Replay scenarios keyless and check them against their recordings (default: all)',
    load: async () => (await import('./commands/run.js')).runCommand,
  },
  {
    name: 'record',
    summary: 'Record scenarios against nestcast serve (authored script) or a real OpenAI-compatible API',
    load: async () => (await import('./commands/record.js')).recordCommand,
  },
  {
    name: 'merge-reports',
    summary: 'Merge the JSON reports of a sharded run into one JSON, JUnit file and HTML index',
    load: async () => (await import('./commands/merge-reports.js')).mergeReportsCommand,
  },
  {
    name: 'inspect',
    summary: 'Show a recording at a glance: sessions, calls, provenance',
    load: async () => (await import('./commands/inspect.js')).inspectCommand,
  },
  {
    name: 'show',
    summary: 'Write the HTML timeline of a recording, without running it',
    load: async () => (await import('./commands/show.js')).showCommand,
  },
  {
    name: 'import',
    summary: 'Convert a nock, Polly.js or HAR fixture into a recording',
    load: async () => (await import('./commands/import.js')).importCommand,
  },
  {
    name: 'export',
    summary: 'Write a recording as a nock fixture or a HAR file',
    load: async () => (await import('./commands/export.js')).exportCommand,
  },
  {
    name: 'fuzz',
    summary: 'Fuzz a subagent provider’s lifecycle ordering with fast-check',
    load: async () => (await import('./commands/fuzz.js')).fuzzCommand,
  },
  {
    name: 'serve',
    summary: 'A loopback model endpoint for any process: serve a script, replay or record',
    load: async () => (await import('./commands/serve.js')).serveCommand,
  },
  {
    name: 'model-server',
    summary: 'Alias of `serve --script`: serve an authored script as a loopback model',
    load: async () => (await import('./commands/model-server.js')).modelServerCommand,
  },
  {
    name: 'acp-agent',
    summary: 'Run the nestcast harness as an ACP agent over stdio',
    load: async () => (await import('./commands/acp-agent.js')).acpAgentCommand,
  },
  // Started by `run --workers`, never by hand: not listed.
  {
    name: 'scenario-worker',
    summary: 'Internal: a worker process of nestcast run --workers',
    hidden: true,
    load: async () => (await import('./commands/scenario-worker.js')).scenarioWorkerCommand,
  },
];

function usage(io: CliIo): string {
  const p = paint(io.color);
  const listed = COMMANDS.filter((command) => command.hidden !== true);
  const width = Math.max(...listed.map((command) => command.name.length));
  return [
    `${p.bold('nestcast')} ${NESTCAST_VERSION}: record/replay testing for nested LLM agents`,
    '',
    'Usage: nestcast <command> [options]',
    '',
    'Commands:',
    ...listed.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Run `nestcast <command> --help` for a command’s options.',
    '',
  ].join('\n');
}

export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout(usage(io));
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${NESTCAST_VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS.find((command) => command.name === name);
  if (!entry) {
    const meant = closestName(
      name,
      COMMANDS.map((command) => command.name),
    );
    io.stderr(
      `nestcast: unknown command "${name}"${meant === undefined ? '' : `; did you mean ${meant}?`}\n\n${usage(io)}`,
    );
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    const out = command.stdoutIsProtocol ? io.stderr : io.stdout;
    out(command.help.endsWith('\n') ? command.help : `${command.help}\n`);
    return 0;
  }
  try {
    checkNestcastVariables(io.env);
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`nestcast ${command.name}: ${error.message}\n\n${command.help}\n`);
      return 2;
    }
    io.stderr(`nestcast ${command.name}: ${describeError(error)}\n`);
    return 1;
  }
}
