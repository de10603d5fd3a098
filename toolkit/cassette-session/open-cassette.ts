import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { CassetteError, refuseUnknownOptions } from '../errors/cassette-error.js';
import { optionKeys } from '../../harness/option-keys.js';
import { META_FILE } from '../cassette/lineage-file.js';
import { loadCassette } from '../cassette/load-cassette.js';
import { mergeCassettes } from '../cassette/merge-cassettes.js';
import { saveCassette, type SaveResult } from '../cassette/save-cassette.js';
import type { Cassette } from '../cassette/types.js';
import type { Secret } from '../secrets/secret.js';
import { resolveLineage } from '../lineage/resolve-lineage.js';
import { credentialSecrets } from '../secrets/credential-headers.js';
import {
  createRecordingFetch,
  RECORDING_OPTION_KEYS,
  type ProvenanceInput,
  type RecordingOptions,
} from '../record/recording-fetch.js';
import { createReplayingFetch, REPLAY_OPTION_KEYS, type ReplayOptions } from '../replay/replaying-fetch.js';
import { resolveCassetteMode, type CassetteMode } from './cassette-mode.js';

export interface CassetteOptions {
  /** Default `replay`; `NESTCAST_RECORD` overrides it (see `resolveCassetteMode`). */
  readonly mode?: CassetteMode;
  /**
   * Passed as they are to `createRecordingFetch` (the real `fetch`, `secrets`, and whatever
   * options recording gains, such as normalisation rules and derived lineages).
   */
  readonly recording?: RecordingOptions;
  /** Passed as they are to `createReplayingFetch` (`mode: 'sequence'`, `timing`, normalisation…). */
  readonly replay?: ReplayOptions;
  /** What the recording says about its source; host and model are otherwise taken from the calls. */
  readonly provenance?: ProvenanceInput;
  /** The command that re-records this cassette, quoted in every replay failure. */
  readonly recordHint?: string;
}

/** Every key of `CassetteOptions`: any other is refused (`OPTIONS_INVALID`). */
export const CASSETTE_OPTION_KEYS = optionKeys<CassetteOptions>({
  mode: true,
  recording: true,
  replay: true,
  provenance: true,
  recordHint: true,
});

/** One cassette opened for one piece of work: give `fetch` to the client, then `close()`. */
export interface CassetteSession {
  /** Pass it to your client: `new OpenAI({ fetch: cassette.fetch })`. */
  readonly fetch: typeof globalThis.fetch;
  readonly dir: string;
  /** The mode asked for. */
  readonly mode: CassetteMode;
  /** What this session does: `replay`, `record` (everything), or `missing` (replay + record new sessions). */
  readonly action: 'replay' | 'record' | 'missing';
  /**
   * Ends the session. Replay: throws the first replay failure, else UNCONSUMED_CALLS if recorded
   * calls were left. Recording: saves the cassette (scanned for secrets first) unless `discard`.
   */
  close(options?: { discard?: boolean }): Promise<SaveResult | undefined>;
}

/** Opens the cassette folder `dir` in `mode` (see `CassetteMode`). */
export async function openCassette(dir: string, options: CassetteOptions = {}): Promise<CassetteSession> {
  refuseUnknownOptions('openCassette', options, CASSETTE_OPTION_KEYS, {
    recording: RECORDING_OPTION_KEYS,
    replay: REPLAY_OPTION_KEYS,
  });
  const mode = resolveCassetteMode(options.mode);
  const hint = options.recordHint ?? `NESTCAST_RECORD=all <your test command>  (cassette ${dir})`;
  const exists = await access(join(dir, META_FILE)).then(
    () => true,
    () => false,
  );
  if (mode === 'all' || (mode === 'once' && !exists) || (mode === 'missing' && !exists))
    return recordingSession(dir, mode, options);
  const cassette = await loadCassette(dir, { recordHint: hint });
  if (mode === 'missing') return missingSession(dir, cassette, options, hint);
  return replaySession(dir, mode, cassette, options, hint);
}

function replaySession(
  dir: string,
  mode: CassetteMode,
  cassette: Cassette,
  options: CassetteOptions,
  hint: string,
): CassetteSession {
  const replay = createReplayingFetch(cassette, { ...options.replay, recordHint: options.replay?.recordHint ?? hint });
  return {
    fetch: replay as typeof globalThis.fetch,
    dir,
    mode,
    action: 'replay',
    close: async () => {
      replay.assertConsumed();
      return undefined;
    },
  };
}

function recordingSession(dir: string, mode: CassetteMode, options: CassetteOptions): CassetteSession {
  const recording = createRecordingFetch(options.recording);
  return {
    fetch: recording as typeof globalThis.fetch,
    dir,
    mode,
    action: 'record',
    close: async ({ discard = false } = {}) => (discard ? undefined : recording.save(dir, options.provenance)),
  };
}

/** Sessions the cassette has are replayed; any other session goes to the network and is added. */
function missingSession(dir: string, cassette: Cassette, options: CassetteOptions, hint: string): CassetteSession {
  const replay = createReplayingFetch(cassette, { ...options.replay, recordHint: options.replay?.recordHint ?? hint });
  const recording = createRecordingFetch(options.recording);
  const secrets = new Map<string, Secret>(
    (options.recording?.secrets ?? []).map((value, i) => [value, { value, label: `secret #${i + 1}` }]),
  );
  let recorded = 0;
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (resolveLineage(request.headers) in cassette.calls) return replay(request);
    recorded++;
    for (const secret of credentialSecrets(request.headers)) secrets.set(secret.value, secret);
    return recording(request);
  };
  return {
    fetch,
    dir,
    mode: 'missing',
    action: 'missing',
    close: async ({ discard = false } = {}) => {
      replay.assertConsumed();
      if (discard || recorded === 0) return undefined;
      const added = await recording.cassette(options.provenance);
      const merged: Cassette = mergeCassettes({ ...cassette, location: undefined }, added);
      return saveCassette(dir, merged, { secrets: [...secrets.values()] }).catch((error: unknown) => {
        throw error instanceof CassetteError
          ? error
          : new CassetteError('CASSETTE_INVALID', `Could not add the new sessions to ${dir}: ${String(error)}`, {
              cause: error,
            });
      });
    },
  };
}
