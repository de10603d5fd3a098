import { describe, expect, test } from 'vitest';
import { startModelServer } from '../../serve/start-model-server.js';
import { main } from '../main.js';

/** Runs `nestcast …args` in-process; none of these reaches the point where serve waits for a signal. */
async function nestcast(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const io = {
    stdout: (text: string) => void (out += text),
    stderr: (text: string) => void (err += text),
    env,
    cwd: process.cwd(),
    color: false,
  };
  const code = await main(args, io);
  return { code, out, err };
}

describe('nestcast serve: bad flags are usage errors (exit 2) saying what to pass', () => {
  test.each([
    [[], 'name a mode: --script <file>, --recording <dir> or --record <dir> --upstream <url>'],
    [['--script', 's.json', '--recording', 'r'], 'name one mode, not --script and --recording'],
    [['--recording', 'r', '--upstream', 'http://x'], '--upstream is for record mode (--record <dir>) only'],
    [['--record', 'r'], '--record needs --upstream <url>'],
    [['--record', 'r', '--upstream', 'ftp://x'], '--upstream must be an http(s) URL, got "ftp://x"'],
    [['--record', 'r', '--upstream', 'http://x', '--api-key-env', 'NO_SUCH_KEY'], 'the environment has no NO_SUCH_KEY'],
    [['--script', 's.json', '--port', '70000'], '--port must be an integer from 0 to 65535, got "70000"'],
    [['--script', 's.json', '--port', '1.5'], '--port must be an integer from 0 to 65535, got "1.5"'],
    [['--script', 's.json', 'extra'], 'unexpected argument "extra"'],
    [['--recording', 'r', '--normalise', 'codex'], '--normalise is for record mode (--record <dir>) only'],
    [
      ['--record', 'r', '--upstream', 'http://x', '--normalise', 'nope'],
      '--normalise: no preset "nope"; the presets are codex, claude-code',
    ],
  ])('nestcast serve %j', async (args, message) => {
    const result = await nestcast(['serve', ...args]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).toContain('Usage: nestcast serve --script');
  });

  test('a port in use exits 1 with PORT_IN_USE', async () => {
    const holder = await startModelServer({ scripts: { lineages: {} } });
    try {
      const port = new URL(holder.url).port;
      const result = await nestcast(['serve', '--recording', 'test/serve/fixtures/python-loop', '--port', port]);
      expect(result.code).toBe(1);
      expect(result.err).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await holder.close();
    }
  });

  test('--help says what is served, how sessions are named, the reset, and the exit code', async () => {
    const result = await nestcast(['serve', '--help']);
    expect(result.code).toBe(0);
    for (const part of ['/lineage/<name>', 'x-session-lineage', '__nestcast/reset', 'exits 1', '--api-key-env'])
      expect(result.out).toContain(part);
    expect(result.out).not.toContain('default main');
  });
});
