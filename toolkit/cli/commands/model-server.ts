import { MODEL_SERVER_HELP, modelServerMain } from '../../model-server/model-server-main.js';
import type { Command } from '../command.js';

export const modelServerCommand: Command = {
  name: 'model-server',
  summary: 'Serve authored scripts as a loopback OpenAI-compatible model',
  help: MODEL_SERVER_HELP,
  async run(argv, io) {
    const server = await modelServerMain([...argv], io.stdout, io.cwd);
    if (!server) return 0;
    // Serves until the process is told to stop.
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.close();
    return 0;
  },
};
