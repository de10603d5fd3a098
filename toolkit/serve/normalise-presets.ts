import type { NormalisationRule } from '../normalisation/types.js';

/**
 * What programs put in their requests that changes on every run, per program, as declarative rules
 * (saved in the recording's meta.json, so replay applies them too). Only what was seen to change
 * between two runs of the program against `nestcast serve` is here.
 */
export const NORMALISE_PRESETS: Readonly<Record<string, readonly NormalisationRule[]>> = {
  /**
   * Codex CLI (`codex exec`, 0.171.0): a fresh UUID per run in `client_metadata` (the turn and
   * session ids) and `prompt_cache_key`, and the turn's start time in `x-codex-turn-metadata`.
   */
  codex: [
    { replace: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}', with: '<uuid>' },
    { replace: '"turn_started_at_unix_ms":\\d+', with: '"turn_started_at_unix_ms":0' },
  ],
};
