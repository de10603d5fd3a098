import { recordSource, replaySource, type ModelSource, type ModelSourceOptions } from '../model-source.js';
import type { ScenarioDefinition } from '../types.js';
import type { RunScenarioOptions } from '../run-scenario.js';
import type { RunFolders } from './run-folders.js';

/** Where the run's model calls come from: the recording (replay), or the script or API they are recorded from. */
export function openModelSource(
  scenario: ScenarioDefinition,
  folders: RunFolders,
  options: RunScenarioOptions,
  program?: Pick<ModelSourceOptions, 'onServed' | 'allow' | 'hook'>,
): Promise<ModelSource> {
  const sourceOptions = {
    scenario,
    recordingDir: folders.recordingDir,
    workDir: folders.workDir,
    env: options.env ?? process.env,
    ...(options.timing !== undefined ? { timing: options.timing } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.apiKeyEnv !== undefined ? { apiKeyEnv: options.apiKeyEnv } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...program,
  };
  return options.mode === 'record' ? recordSource(sourceOptions) : replaySource(sourceOptions);
}
