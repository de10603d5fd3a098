import { describe, expect, test } from 'vitest';
import { childEnv } from './child-env.js';

const nestcast = { lineage: 'main/call_1', sessionsRoot: '/runs/r1/sessions' };

describe('child environment', () => {
  test('drops credential-looking variables but keeps the rest of the parent environment', () => {
    const env = childEnv(
      {
        PATH: '/bin',
        HOME: '/home/u',
        DEEPSEEK_API_KEY: 'k',
        GITHUB_TOKEN: 't',
        DB_PASSWORD: 'p',
        AWS_SECRET_ACCESS_KEY: 's',
        GCP_CREDENTIALS: 'c',
        api_key: 'lower',
      },
      {},
      nestcast,
    );
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      NESTCAST_LINEAGE: 'main/call_1',
      NESTCAST_SESSIONS_ROOT: '/runs/r1/sessions',
    });
  });

  test('a model endpoint points each named variable at the endpoint under the child lineage, with a dummy key in place of any real one', () => {
    const env = childEnv(
      { ANTHROPIC_API_KEY: 'sk-ambient' },
      {},
      {
        ...nestcast,
        modelEndpoint: {
          url: 'http://127.0.0.1:4100/',
          baseUrlVariables: { ANTHROPIC_BASE_URL: '', OPENAI_BASE_URL: '/v1' },
          keyVariables: ['ANTHROPIC_API_KEY'],
        },
      },
    );
    expect(env).toEqual({
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4100/lineage/main%2Fcall_1',
      OPENAI_BASE_URL: 'http://127.0.0.1:4100/lineage/main%2Fcall_1/v1',
      ANTHROPIC_API_KEY: 'nestcast-dummy-key',
      NESTCAST_LINEAGE: 'main/call_1',
      NESTCAST_SESSIONS_ROOT: '/runs/r1/sessions',
    });
  });

  test('passes a key only when the config names it explicitly', () => {
    expect(childEnv({ DEEPSEEK_API_KEY: 'ambient' }, { DEEPSEEK_API_KEY: 'explicit' }, nestcast).DEEPSEEK_API_KEY).toBe(
      'explicit',
    );
  });

  test('the run binds lineage and sessions root, whatever the config says', () => {
    const env = childEnv(
      { NESTCAST_LINEAGE: 'stale' },
      { NESTCAST_LINEAGE: 'forged', NESTCAST_SESSIONS_ROOT: '/elsewhere' },
      nestcast,
    );
    expect(env).toMatchObject({ NESTCAST_LINEAGE: 'main/call_1', NESTCAST_SESSIONS_ROOT: '/runs/r1/sessions' });
  });

  test('the record/replay variables come from the parent’s environment or, explicitly, from the config', () => {
    expect(childEnv({ NESTCAST_MODE: 'replay', NESTCAST_CASSETTE: '/rec/s1' }, {}, nestcast)).toMatchObject({
      NESTCAST_MODE: 'replay',
      NESTCAST_CASSETTE: '/rec/s1',
    });
    expect(childEnv({}, { NESTCAST_MODE: 'record', NESTCAST_OUTBOX: '/run/outbox' }, nestcast)).toMatchObject({
      NESTCAST_MODE: 'record',
      NESTCAST_OUTBOX: '/run/outbox',
    });
  });
});
