import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import helloChild from '../../scenarios/hello-child.scenario.js';
import { listFiles, makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { startModelServer } from '../model-server/model-server.js';
import type { CliIo } from './io.js';
import { main } from './main.js';
import { NESTCAST_VERSION } from './version.js';
import { childrenFromBuiltCli } from '../../test/support/built-cli.js';

// The workers `main` starts run from the build: the file proves the commands, not the sources' loader.
childrenFromBuiltCli();

const REPO = process.cwd();
const ANSI = /\u001b\[/;

function memoryIo(env: NodeJS.ProcessEnv = {}, color = false): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    env,
    cwd: REPO,
    color,
    out: () => out,
    err: () => err,
  };
}

let temp: string;
beforeEach(async () => {
  temp = await makeTempDir('cli-');
});
afterEach(async () => {
  await removeTempDir(temp);
});

describe('nestcast', () => {
  it('lists its commands with --help and exits 0', async () => {
    const io = memoryIo();
    expect(await main(['--help'], io)).toBe(0);
    for (const command of ['run', 'record', 'inspect', 'fuzz', 'model-server', 'acp-agent'])
      expect(io.out()).toContain(`  ${command} `);
  });

  it('refuses an unknown command with the usage and exit code 2', async () => {
    const io = memoryIo();
    expect(await main(['replay'], io)).toBe(2);
    expect(io.err()).toContain('unknown command "replay"');
    expect(io.err()).toContain('Usage: nestcast <command>');
  });

  it('prints its version, the one in package.json', async () => {
    const io = memoryIo();
    expect(await main(['--version'], io)).toBe(0);
    const pkg = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(io.out().trim()).toBe(pkg.version);
    expect(NESTCAST_VERSION).toBe(pkg.version);
  });

  it.each(['run', 'record', 'inspect', 'show', 'fuzz', 'model-server', 'merge-reports'])(
    'prints the help of %s on stdout',
    async (command) => {
      const io = memoryIo();
      expect(await main([command, '--help'], io)).toBe(0);
      expect(io.out()).toContain(`nestcast ${command}`);
    },
  );

  it('prints the help of acp-agent on stderr, since its stdout carries protocol frames only', async () => {
    const io = memoryIo();
    expect(await main(['acp-agent', '--help'], io)).toBe(0);
    expect(io.out()).toBe('');
    expect(io.err()).toContain('Usage: nestcast acp-agent');
  });

  it('reports a wrong option as a usage error with exit code 2', async () => {
    const io = memoryIo();
    expect(await main(['run', '--colour'], io)).toBe(2);
    expect(io.err()).toMatch(/nestcast run: Unknown option '--colour'\n/);
  });

  it('refuses to run any command under a NESTCAST_ variable it does not read, naming the one meant', async () => {
    const io = memoryIo({ NESTCAST_RECROD: 'all' });
    expect(await main(['inspect', 'spawn-one'], io)).toBe(1);
    expect(io.err()).toMatch(
      /^nestcast inspect: NESTCAST_VARIABLE_UNKNOWN: The environment sets NESTCAST_RECROD, which nestcast does not read: did you mean NESTCAST_RECORD\?/,
    );
    expect(io.out()).toBe('');
  });

  it('names the option or command a misspelt one was closest to', async () => {
    const io = memoryIo();
    expect(await main(['run', '--wrokers', '2'], io)).toBe(2);
    expect(io.err()).toMatch(/^nestcast run: Unknown option '--wrokers'; did you mean --workers\?\n/);
    expect(await main(['recrod'], io)).toBe(2);
    expect(io.err()).toContain('nestcast: unknown command "recrod"; did you mean record?\n');
    expect(await main(['replay'], io)).toBe(2);
    expect(io.err()).toContain('nestcast: unknown command "replay"\n');
  });
});

describe('nestcast run', () => {
  it('replays a scenario keyless with a progress line and a summary table, without colour under NO_COLOR', async () => {
    const io = memoryIo({ NO_COLOR: '1' });
    expect(await main(['run', 'spawn-one', 'multi'], io)).toBe(0);
    const lines = io.out().split('\n');
    expect(lines[0]).toMatch(/^✓ spawn-one {2}2 sessions {2}3 model calls {2}\d+ ms$/);
    expect(lines[1]).toMatch(/^✓ multi {2}3 sessions {2}5 model calls {2}\d+ ms$/);
    expect(io.out()).toMatch(
      /scenario +sessions +model calls +result +time\nspawn-one +2 +3 +pass +\d+ ms\nmulti +3 +5 +pass +\d+ ms/,
    );
    expect(io.out()).toContain('2 scenarios passed');
    expect(io.out()).not.toMatch(ANSI);
  });

  it('colours its output on a terminal', async () => {
    const io = memoryIo({}, true);
    expect(await main(['run', 'spawn-one'], io)).toBe(0);
    expect(io.out()).toMatch(ANSI);
  });

  it('ignores an API key in the environment: nothing leaves the process and the replay passes', async () => {
    const io = memoryIo({ DEEPSEEK_API_KEY: 'sk-live-should-never-be-used', DEEPSEEK_BASE_URL: 'http://127.0.0.1:9' });
    expect(await main(['run', 'child-http-error'], io)).toBe(0);
  });

  it('names the scenario a mistyped name was closest to, and lists the known ones', async () => {
    const io = memoryIo();
    expect(await main(['run', 'spawn-on'], io)).toBe(1);
    expect(io.err()).toContain(
      'UNKNOWN_SCENARIO: Unknown scenario "spawn-on" (did you mean "spawn-one"?) in ' +
        `${join(REPO, 'scenarios')}. Known: acp-child, acp-child-crash,`,
    );
  });

  it('fails, naming the scenario, the lineage and the divergence, when one word of a recorded child answer changes', async () => {
    await cp(join(REPO, 'recordings', 'spawn-one'), join(temp, 'spawn-one'), { recursive: true });
    const childCalls = join(temp, 'spawn-one', 'calls', 'main', 'call_capital.jsonl');
    const recorded = await readFile(childCalls, 'utf8');
    expect(recorded).toContain('Canberra');
    await writeFile(childCalls, recorded.replace('Canberra', 'Sydney'));
    const io = memoryIo({ NO_COLOR: '1' });

    const code = await main(['run', 'spawn-one', '--recordings', temp], io);

    expect(code).toBe(1);
    expect(io.out()).toContain('✗ spawn-one');
    expect(io.out()).toContain('REQUEST_MISMATCH spawn-one: Model call 2 of session "main" does not match');
    expect(io.out()).toContain('messages[3].content');
    expect(io.out()).toMatch(/recorded: "Canberra"\s+live: +"Sydney"/);
    expect(io.out()).toContain('1 of 1 scenario failed');
  });

  it('fails with CASSETTE_NOT_FOUND and the record command for a scenario with neither recording nor script', async () => {
    const scenarios = join(temp, 'scenarios');
    await cp(join(REPO, 'scenarios', 'spawn-one.scenario.ts'), join(scenarios, 'unscripted.scenario.ts'));
    const source = await readFile(join(scenarios, 'unscripted.scenario.ts'), 'utf8');
    await writeFile(
      join(scenarios, 'unscripted.scenario.ts'),
      source
        .replace("name: 'spawn-one'", "name: 'unscripted'")
        .replace(/  script: \{[\s\S]*?\n  \},\n/, '')
        .replace("'../toolkit/", `'${REPO}/toolkit/`),
    );
    const io = memoryIo({ NO_COLOR: '1' });

    expect(await main(['run', '--scenarios', scenarios, '--recordings', join(temp, 'recordings')], io)).toBe(1);

    expect(io.out()).toContain('CASSETTE_NOT_FOUND');
    expect(io.out()).toContain('Record one with: nestcast record unscripted');
  });
});

// Each record and run starts a worker process from the sources: a loaded machine needs more than the default.
describe('nestcast record and inspect', { timeout: 90_000 }, () => {
  it('records a scenario keyless against the model server, then inspect shows it and run replays it', async () => {
    const io = memoryIo({ NO_COLOR: '1' });
    expect(await main(['record', 'hello-child', '--recordings', temp], io)).toBe(0);
    const meta = JSON.parse(await readFile(join(temp, 'hello-child', 'meta.json'), 'utf8')) as {
      provenance: Record<string, string>;
      lineages: string[];
    };
    expect(meta.provenance).toMatchObject({
      source: 'recorded',
      host: 'model-server.nestcast.invalid',
      baseUrl: 'http://model-server.nestcast.invalid',
    });
    expect(meta.lineages).toEqual(['main', 'main/call_hello']);

    const inspect = memoryIo({ NO_COLOR: '1' });
    expect(await main(['inspect', 'hello-child', '--recordings', temp], inspect)).toBe(0);
    expect(inspect.out()).toMatch(/source +recorded from model-server\.nestcast\.invalid/);
    expect(inspect.out()).toMatch(/sessions +2, model calls 3/);
    expect(inspect.out()).toMatch(/main\/call_hello +1 +\d+ events/);
    // What the model said, call by call: its text's first line and the tools it called.
    expect(inspect.out()).toContain(
      '      1. → subagent({"description":"Say hello","prompt":"Say hello."})\n      2. "The helper says: Hello!"\n',
    );
    expect(inspect.out()).toMatch(/main\/call_hello .*\n {6}1\. "Hello!"\n/);

    const replay = memoryIo({ NO_COLOR: '1' });
    expect(await main(['run', 'hello-child', '--recordings', temp], replay)).toBe(0);
  });

  it('re-recording the same conversation leaves every file byte-identical', async () => {
    expect(await main(['record', 'parallel', '--recordings', temp], memoryIo())).toBe(0);
    const files = [
      'meta.json',
      'calls/main.jsonl',
      'calls/main/call_iceland.jsonl',
      'calls/main/call_malta.jsonl',
      'transcripts/main.jsonl',
    ];
    const first = await Promise.all(files.map((file) => readFile(join(temp, 'parallel', file), 'utf8')));
    expect(await main(['record', 'parallel', '--recordings', temp], memoryIo())).toBe(0);
    const second = await Promise.all(files.map((file) => readFile(join(temp, 'parallel', file), 'utf8')));
    expect(second).toEqual(first);
  });

  it('saves nothing when the recorded run fails, leaving the existing recording as it was', async () => {
    const scenarios = join(temp, 'scenarios');
    const recordingsDir = join(temp, 'recordings');
    await cp(join(REPO, 'recordings', 'hello-child'), join(recordingsDir, 'hello-child'), { recursive: true });
    const source = await readFile(join(REPO, 'scenarios', 'hello-child.scenario.ts'), 'utf8');
    await mkdir(scenarios, { recursive: true });
    await writeFile(
      join(scenarios, 'hello-child.scenario.ts'),
      source
        .replace("{ text: 'Hello!' }", "{ text: 'Goodbye!' }")
        .replace("output: { main: 'The helper says: Hello!' }", "output: { 'main/call_hello': 'Hello!' }")
        .replace("'../toolkit/", `'${REPO}/toolkit/`),
    );
    const before = await readFile(join(recordingsDir, 'hello-child', 'calls', 'main', 'call_hello.jsonl'), 'utf8');
    const io = memoryIo({ NO_COLOR: '1' });

    expect(await main(['record', 'hello-child', '--scenarios', scenarios, '--recordings', recordingsDir], io)).toBe(1);

    expect(io.out()).toContain(
      'EXPECTATION_FAILED hello-child: expected the final answer of "main/call_hello" to match Hello!',
    );
    expect(io.out()).toContain(`NOT_SAVED hello-child: nothing was written to ${join(recordingsDir, 'hello-child')}`);
    expect(await readFile(join(recordingsDir, 'hello-child', 'calls', 'main', 'call_hello.jsonl'), 'utf8')).toBe(
      before,
    );
  });

  it('refuses to record against a real API without a key, and writes nothing', async () => {
    const io = memoryIo({ NO_COLOR: '1' });
    expect(await main(['record', 'spawn-one', '--base-url', 'http://127.0.0.1:9', '--recordings', temp], io)).toBe(1);
    expect(io.out()).toContain(
      'MISSING_KEY spawn-one: Recording "spawn-one" against http://127.0.0.1:9 needs an API key: set DEEPSEEK_API_KEY',
    );
  });

  it('records against an API with the key from --api-key-env, which never reaches a file; without it, names the variable to set', async () => {
    const server = await startModelServer({ scripts: helloChild.script! });
    try {
      const key = 'sk-proxy-0123456789abcdef';
      const args = [
        'record',
        'hello-child',
        '--base-url',
        server.url,
        '--api-key-env',
        'MY_PROXY_KEY',
        '--model',
        'proxy-model',
        '--recordings',
        temp,
      ];
      const missing = memoryIo({ NO_COLOR: '1' });
      expect(await main(args, missing)).toBe(1);
      expect(missing.out()).toContain('needs an API key: set MY_PROXY_KEY');
      expect(await main(args, memoryIo({ NO_COLOR: '1', MY_PROXY_KEY: key }))).toBe(0);
      for (const file of await listFiles(join(temp, 'hello-child')))
        expect(await readFile(join(temp, 'hello-child', file), 'utf8')).not.toContain(key);
    } finally {
      await server.close();
    }
    const openai = memoryIo({ NO_COLOR: '1' });
    expect(
      await main(['record', 'spawn-one', '--base-url', 'https://api.openai.com/v1', '--recordings', temp], openai),
    ).toBe(1);
    expect(openai.out()).toContain('needs an API key: set OPENAI_API_KEY');
  });

  it('tells inspect’s user how to record a recording that does not exist', async () => {
    const io = memoryIo();
    expect(await main(['inspect', 'nothing-here', '--recordings', temp], io)).toBe(1);
    expect(io.err()).toContain('CASSETTE_NOT_FOUND');
    expect(io.err()).toContain('nestcast record nothing-here');
  });
});

describe('--timing', () => {
  it('reads a speed factor as the inverse scale of recorded delays', async () => {
    const { parseTiming } = await import('./commands/run.js');
    expect(parseTiming(undefined)).toBeUndefined();
    expect(parseTiming('instant')).toBe('instant');
    expect(parseTiming('recorded')).toBe('recorded');
    expect(parseTiming('2')).toEqual({ scale: 0.5 });
    expect(parseTiming('0.5x')).toEqual({ scale: 2 });
    expect(() => parseTiming('fast')).toThrow(
      '--timing must be instant, recorded or a positive speed factor, got "fast"',
    );
  });
});
