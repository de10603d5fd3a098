import { acpAgentMain } from './acp-agent-main.js';

// Exits explicitly: an idle keep-alive socket of the model client must not hold a finished agent.
process.exit(await acpAgentMain(process.argv.slice(2), process.env));
