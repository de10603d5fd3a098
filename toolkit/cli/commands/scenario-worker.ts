import { runScenarioFile } from '../../scenarios/run-scenario-file.js';
import type { Command } from '../command.js';
import { runOptions } from './run.js';
import { isRunMessage, type ReportMessage, type RunMessage } from '../workers/worker-messages.js';

const help = `Usage: nestcast scenario-worker

Internal: a worker process of \`nestcast run --workers N\`. It takes whole scenarios over its IPC
channel, one at a time, runs each exactly as a serial \`nestcast run\` would, and sends back the
report. It exits when the parent closes the channel.`;

export const scenarioWorkerCommand: Command = {
  name: 'scenario-worker',
  summary: 'Internal: a worker process of nestcast run --workers',
  help,
  async run(_argv, io) {
    const send = process.send?.bind(process);
    if (send === undefined) {
      io.stderr(
        'nestcast scenario-worker: started without an IPC channel; it is started by `nestcast run --workers N`, not by hand.\n',
      );
      return 2;
    }
    // One scenario at a time, in the order given: the parent hands out the next only after a report.
    let queue = Promise.resolve();
    process.on('message', (message: unknown) => {
      if (!isRunMessage(message)) return;
      queue = queue.then(() => runOne(message, io.env, send));
    });
    await new Promise<void>((resolve) => process.once('disconnect', resolve));
    await queue;
    return 0;
  },
};

async function runOne(
  message: RunMessage,
  env: NodeJS.ProcessEnv,
  send: NonNullable<typeof process.send>,
): Promise<void> {
  // The IPC channel would keep the event loop alive: unref'd while the scenario runs, a scenario
  // that leaves nothing to wait on drains the loop and fails SCENARIO_STALLED, as in a serial run.
  process.channel?.unref();
  let report;
  try {
    report = await runScenarioFile(message.options.scenariosDir, message.name, runOptions(message.options, env));
  } finally {
    process.channel?.ref();
  }
  const reply: ReportMessage = { type: 'report', name: message.name, report };
  await new Promise<void>((resolve) => send(reply, undefined, {}, () => resolve()));
}
