import { expect, test } from 'vitest';
import { createNormaliser } from '../normalisation/normaliser.js';
import { NORMALISE_PRESETS } from './normalise-presets.js';

test('the codex preset makes two runs of the same codex exec prompt equal: per-run UUIDs and the turn start time', () => {
  const run = (id: string, started: number) => ({
    prompt_cache_key: id,
    client_metadata: {
      'x-codex-turn-metadata': `{"turn_id":"${id}","turn_started_at_unix_ms":${started},"model":"gpt-5"}`,
    },
  });
  const { apply } = createNormaliser({ rules: NORMALISE_PRESETS['codex'] ?? [] }, 'the codex preset');
  expect(apply(run('01a234d6-31db-78c0-a62b-b3bc17260ca6', 1796183201420))).toEqual(
    apply(run('01a234d6-848f-7011-acec-bae9263fdcce', 1796183220144)),
  );
});
