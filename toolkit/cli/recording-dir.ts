import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';

/** `<recording>` as given to inspect and show: a recording folder, else a scenario name under `recordings`. */
export async function recordingDir(cwd: string, target: string, recordings = 'recordings'): Promise<string> {
  const direct = resolve(cwd, target);
  return (await isDirectory(direct)) ? direct : resolve(cwd, recordings, target);
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
