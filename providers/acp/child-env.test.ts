import { describe, expect, test } from 'vitest';
import { childEnv } from './child-env.js';

const nestcast = { lineage: 'main/call_1', sessionsRoot: '/runs/r1/sessions' };

describe('child environment', () => {
  test('drops credential-looking variables but keeps the rest of the parent environment', () => {
    const env = childEnv(
      { PATH: '/bin', HOME: '/home/u', DEEPSEEK_API_KEY: 'k', GITHUB_TOKEN: 't', DB_PASSWORD: 'p', AWS_SECRET_ACCESS_KEY: 's', GCP_CREDENTIALS: 'c', api_key: 'lower' },
      {},
      nestcast,
    );
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/u', NESTCAST_LINEAGE: 'main/call_1', NESTCAST_SESSIONS_ROOT: '/runs/r1/sessions' });
  });

  test('passes a key only when the config names it explicitly', () => {
    expect(childEnv({ DEEPSEEK_API_KEY: 'ambient' }, { DEEPSEEK_API_KEY: 'explicit' }, nestcast).DEEPSEEK_API_KEY).toBe('explicit');
  });

  test('the run binds the nestcast variables: lineage, sessions root, mode and cassette follow the parent, not the config', () => {
    const env = childEnv(
      { NESTCAST_MODE: 'replay', NESTCAST_CASSETTE: '/rec/s1', NESTCAST_LINEAGE: 'stale' },
      { NESTCAST_MODE: 'record', NESTCAST_LINEAGE: 'forged', NESTCAST_SESSIONS_ROOT: '/elsewhere' },
      nestcast,
    );
    expect(env).toMatchObject({ NESTCAST_MODE: 'replay', NESTCAST_CASSETTE: '/rec/s1', ...{ NESTCAST_LINEAGE: 'main/call_1', NESTCAST_SESSIONS_ROOT: '/runs/r1/sessions' } });
  });

  test('a mode the parent does not run in is not invented by the config', () => {
    expect(childEnv({}, { NESTCAST_MODE: 'record' }, nestcast)).not.toHaveProperty('NESTCAST_MODE');
  });
});
