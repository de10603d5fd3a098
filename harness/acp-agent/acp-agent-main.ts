import { messageOf } from '../error-text.js';
import { createStderrLogger } from '../runtime/logger.js';
import { runAcpAgent, type RunAcpAgentOptions } from './run-acp-agent.js';

export const ACP_AGENT_USAGE = `Usage: nestcast acp-agent

Serves the nestcast harness as an ACP agent on stdin/stdout (newline-delimited JSON-RPC).
stdout carries protocol frames only; logs go to stderr. Exits 0 when stdin ends.

Environment:
  NESTCAST_SESSIONS_ROOT  where session logs are written (default ~/.nestcast/sessions)
  NESTCAST_LINEAGE        lineage of the session session/new creates (default main)
  NESTCAST_LOG_LEVEL      debug | info | warn | error (default warn)
  DEEPSEEK_BASE_URL       OpenAI-compatible endpoint (default https://api.deepseek.com)
  DEEPSEEK_API_KEY        sent as a bearer token when set
  DEEPSEEK_MODEL          model id (default deepseek-v4-flash)
`;

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/** `nestcast acp-agent`: resolves with the exit code once the client has gone and every session is flushed. */
export async function acpAgentMain(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  overrides: Pick<RunAcpAgentOptions, 'createRuntime' | 'modelFetch' | 'version'> = {},
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stderr.write(ACP_AGENT_USAGE);
    return 0;
  }
  if (argv.length > 0) {
    process.stderr.write(
      `nestcast acp-agent: unexpected argument ${JSON.stringify(argv[0])}; it takes none (configure it through the environment)\n\n${ACP_AGENT_USAGE}`,
    );
    return 2;
  }
  const level = env.NESTCAST_LOG_LEVEL ?? 'warn';
  if (!LOG_LEVELS.includes(level as LogLevel)) {
    process.stderr.write(
      `nestcast acp-agent: NESTCAST_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(level)}\n`,
    );
    return 2;
  }
  const logger = createStderrLogger('nestcast acp-agent', level as LogLevel);
  try {
    await runAcpAgent({ stdin: process.stdin, stdout: process.stdout, env, logger, ...overrides });
    return 0;
  } catch (error) {
    logger.error(`stopped: ${messageOf(error)}`);
    return 1;
  }
}
