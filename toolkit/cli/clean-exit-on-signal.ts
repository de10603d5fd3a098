import { recoverInterruptedSwaps } from '../recording-folder/recover-swaps.js';
import { removeLiveWorkFoldersSync } from '../scenarios/work-folders.js';

// Captured at load: scenario code runs with process.exit trapped, and a signal must still end the process.
const exit = process.exit.bind(process);

/**
 * Ctrl-C and SIGTERM while scenarios run: remove every work folder (a session log there may hold
 * what a tool returned), settle this process's half-done recording swaps in `recordingsDirs`,
 * then exit 130 / 143 like a shell would report. Returns the uninstall.
 */
export function cleanExitOnSignal(recordingTargets: () => readonly string[]): () => void {
  const handler = (signal: NodeJS.Signals) => {
    removeLiveWorkFoldersSync();
    for (const target of recordingTargets()) {
      try {
        recoverInterruptedSwaps(target, { own: true });
      } catch {
        // Best effort on the way out; the next run repairs what is left.
      }
    }
    process.stderr.write(`\nnestcast: stopped by ${signal}; work folders removed, recordings left whole\n`);
    exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
