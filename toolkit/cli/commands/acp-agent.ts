import { ACP_AGENT_USAGE, acpAgentMain } from '../../../harness/acp-agent/acp-agent-main.js';
import { childModelFromEnv } from '../../scenarios/child-model.js';
import type { Command } from '../command.js';

export const acpAgentCommand: Command = {
  name: 'acp-agent',
  summary: 'Run the nestcast harness as an ACP agent over stdio',
  help: ACP_AGENT_USAGE,
  stdoutIsProtocol: true,
  async run(argv, io) {
    // Started by a scenario run, the child records or replays its own model calls.
    const model = await childModelFromEnv(io.env);
    const code = await acpAgentMain(argv, io.env, model ? { modelFetch: model.fetch } : {});
    await model?.finish();
    return code;
  },
};
