import { recoverInterruptedSwaps } from '../recording-folder/recover-swaps.js';
import { removeLiveWorkFoldersSync } from '../scenarios/work-folders.js';
import { stopLiveWorkers } from './workers/live-workers.js';

// Captured at load: scenario code runs with process.exit trapped, and a signal must still end the process.
const exit = process.exit.bind(process);

/** The exit code a shell reports for a process ended by each signal handled here. */
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Ctrl-C, SIGTERM and SIGHUP while scenarios run: stop every worker process (and what scenario
 * code started in it), remove every work folder (a session log there may hold what a tool
 * returned), settle this process's half-done recording swaps in `recordingTargets`, then exit
 * 130 / 143 / 129 like a shell would report. Returns the uninstall.
 */
export function cleanExitOnSignal(recordingTargets: () => readonly string[]): () => void {
  let stopping = false;
  const handler = (signal: keyof typeof EXIT_CODES) => {
    if (stopping) return;
    stopping = true;
    void stopLiveWorkers().finally(() => {
      removeLiveWorkFoldersSync();
      for (const target of recordingTargets()) {
        try {
          recoverInterruptedSwaps(target, { own: true });
        } catch {
          // Best effort on the way out; the next run repairs what is left.
        }
      }
      process.stderr.write(`\nnestcast: stopped by ${signal}; work folders removed, recordings left whole\n`);
      exit(EXIT_CODES[signal]);
    });
  };
  for (const signal of Object.keys(EXIT_CODES) as (keyof typeof EXIT_CODES)[]) process.on(signal, handler);
  return () => {
    for (const signal of Object.keys(EXIT_CODES) as (keyof typeof EXIT_CODES)[]) process.off(signal, handler);
  };
}
