import type { NormalisationRule } from '../normalisation/types.js';

/**
 * What programs put in their requests that changes on every run, per program, as declarative rules
 * (saved in the recording's meta.json, so replay applies them too). Only what was seen to change
 * between two runs of the program against `nestcast serve` is here.
 */
export const NORMALISE_PRESETS: Readonly<Record<string, readonly NormalisationRule[]>> = {
  /**
   * Codex CLI (`codex exec`, 0.171.0): a fresh UUID per run in `client_metadata` (the turn and
   * session ids) and `prompt_cache_key`, the turn's start time in `x-codex-turn-metadata`, and in
   * an `exec_command` result its random chunk id and how long the command ran (`Wall time`).
   */
  codex: [
    { replace: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}', with: '<uuid>' },
    { replace: '"turn_started_at_unix_ms":\\d+', with: '"turn_started_at_unix_ms":0' },
    { replace: 'Chunk ID: [0-9a-f]{6}', with: 'Chunk ID: <chunk-id>' },
    { replace: 'Wall time: \\d+(\\.\\d+)? seconds', with: 'Wall time: 0 seconds' },
  ],
  /**
   * Claude Code 2.1.333 (`claude -p`, the binary of `@anthropic-ai/claude-agent-sdk`'s platform
   * package): the session id (a UUID) and the device id (64 hex, made when the config folder is new)
   * in `metadata.user_id`, the date in the system prompt, and each sub-agent's id (`a` and 16 hex)
   * and how long it ran (`duration_ms`) in the Agent tool's result. Its system prompt also names the
   * machine: the kernel (`OS Version`) and the login shell from `$SHELL` (`unknown` where it is unset,
   * as in some CI runners), so a recording replays on another machine or runner.
   */
  'claude-code': [
    { replace: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}', with: '<uuid>' },
    { replace: '"device_id":"[0-9a-f]{64}"', with: '"device_id":"<device-id>"' },
    { replace: "Today's date is \\d{4}-\\d{2}-\\d{2}", with: "Today's date is <date>" },
    { replace: "(agentId: |to: ')a[0-9a-f]{16}", with: '$1<agent-id>' },
    { replace: 'duration_ms: \\d+', with: 'duration_ms: 0' },
    { replace: 'OS Version: [^\\n]*', with: 'OS Version: <os-version>' },
    { replace: 'Shell: [^\\n]*', with: 'Shell: <shell>' },
  ],
};
