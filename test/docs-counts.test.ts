import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUZZ_PROVIDERS } from '../toolkit/fuzz/run-fuzz.js';

/**
 * The numbers README.md and docs/ state about the repository, each compared with the repository:
 * a doc may not say "four providers" or "replayed 20 times" unless that is what the code does.
 * Measurements (docs/performance.md, timings, figures dated as measured) are not counts: not here.
 */
const REPO = resolve(import.meta.dirname, '..');

/** A file's text with every run of whitespace one space, so a phrase may wrap across lines. */
function prose(file: string): string {
  return readFileSync(join(REPO, file), 'utf8').replace(/\s+/g, ' ');
}

/** Fails naming the file and the phrase it should contain, not printing the whole doc. */
function expectSays(file: string, phrase: string): void {
  expect(prose(file).includes(phrase), `${file} should say "${phrase}"`).toBe(true);
}

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

function inWords(count: number): string {
  const word = WORDS[count];
  if (word === undefined) throw new Error(`no word for ${count}: write the number as digits in the doc and here`);
  return word;
}

/** "20, 22, 24 and 26" */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The one number a test file assigns to `const <name> = <n>;`. */
function constantOf(file: string, name: string): number {
  const match = new RegExp(`^const ${name} = (\\d+);$`, 'm').exec(readFileSync(join(REPO, file), 'utf8'));
  if (!match)
    throw new Error(`${file} has no \`const ${name} = <number>;\`: update this test with the test it describes`);
  return Number(match[1]);
}

/** The Node majors of .ci/node-versions by role: `oldest`, `lts`, `newest`. */
function nodeMajors(): Map<string, string[]> {
  const roles = new Map<string, string[]>();
  for (const line of readFileSync(join(REPO, '.ci', 'node-versions'), 'utf8').split('\n')) {
    const match = /^(\w+) (\d+)\.\d+\.\d+$/.exec(line);
    if (match) roles.set(match[1] as string, [...(roles.get(match[1] as string) ?? []), match[2] as string]);
  }
  return roles;
}

describe('the counts in the docs', () => {
  it('README.md and package.json "engines" name the Node versions .ci/node-versions proves, README with what CI runs on each', () => {
    const roles = nodeMajors();
    const [oldest, newest, lts] = [roles.get('oldest') ?? [], roles.get('newest') ?? [], roles.get('lts') ?? []];
    expect([oldest.length, newest.length]).toEqual([1, 1]);
    expectSays('README.md', `Node ${listed([...oldest, ...lts, ...newest])} (`);
    expectSays(
      'README.md',
      `CI runs every test on ${oldest[0]} and on ${newest[0]}, the install-from-tarball tests on ${listed(lts)}`,
    );
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } };
    const engines = [...manifest.engines.node.matchAll(/\^(\d+)\./g)].map((match) => match[1]);
    expect(engines, 'package.json "engines" names the majors CI proves').toEqual([...oldest, ...lts, ...newest]);
  });

  it('docs/fuzzing.md counts the built-in providers `nestcast fuzz` knows by name', () => {
    expectSays('docs/fuzzing.md', `It runs on the ${inWords(Object.keys(FUZZ_PROVIDERS).length)} built-in providers`);
  });

  it('docs/frameworks.md says how many times the framework tests replay each recording', () => {
    const dir = join(REPO, 'test', 'frameworks');
    const counts = readdirSync(dir)
      .filter((name) => name.endsWith('.test.ts'))
      .flatMap((name) =>
        [...readFileSync(join(dir, name), 'utf8').matchAll(/^\s*times: (\d+),$/gm)].map((match) => match[1]),
      );
    expect(counts.length).toBeGreaterThan(0);
    expect(new Set(counts).size, `the framework tests replay different numbers of times: ${counts.join(', ')}`).toBe(1);
    expectSays('docs/frameworks.md', `replaying each recording ${counts[0]} times`);
  });

  it('docs/serve.md and docs/acp.md say how many times each agent-CLI test replays its recording', () => {
    const codex = constantOf('test/ecosystem/codex.test.ts', 'REPLAYS');
    expectSays(
      'docs/serve.md',
      `Recorded once, then replayed ${codex} times from the recording: the same answer on stdout`,
    );
    const claudeCode = constantOf('test/serve/claude-code.test.ts', 'REPLAYS');
    expectSays('docs/serve.md', `it is recorded once, then replayed ${claudeCode} times with the same answer`);
    const agentSdk = constantOf('test/serve/claude-agent-sdk.test.ts', 'REPLAYS');
    expectSays('docs/serve.md', `then replayed ${agentSdk} times from the recording: the same messages`);
    const acp = constantOf('test/serve/claude-agent-acp.test.ts', 'REPLAYS');
    expectSays('docs/acp.md', `then replayed ${inWords(acp)} times from the recording, keyless`);
  });

  it("docs/fuzzing.md says how many schedules the suite's own tests run", () => {
    const runsOf = (file: string, factory: string): string => {
      const match = new RegExp(`checkProviderLifecycle\\(${factory}, \\{ runs: (\\d+)(?:, seed: (\\d+))? \\}\\)`).exec(
        readFileSync(join(REPO, file), 'utf8'),
      );
      if (!match)
        throw new Error(`${file} no longer calls checkProviderLifecycle(${factory}, { runs: <n> }): update this test`);
      return `${Number(match[1]).toLocaleString('en-US')}${match[2] === undefined ? '' : ` from seed ${match[2]}`}`;
    };
    const inProcess = runsOf('toolkit/fuzz/factories/in-process-factories.test.ts', 'factory');
    expect(runsOf('toolkit/fuzz/factories/mock-factory.test.ts', 'mockFactory')).toBe(inProcess);
    expectSays('docs/fuzzing.md', `every cell is reached in ${inProcess} schedules for spawn, fork and mock`);
    expectSays(
      'docs/fuzzing.md',
      `reaches every documented path (below) in ${runsOf('toolkit/fuzz/check-provider-lifecycle.test.ts', 'spawnFactory').replace(/ from seed.*/, '')}`,
    );
    expectSays(
      'docs/fuzzing.md',
      `acp reaches every path it claims in ${runsOf('toolkit/fuzz/factories/acp-factory.test.ts', 'acpFactory')}.`,
    );
    const mutants = 'toolkit/fuzz/mutants/mutants.test.ts';
    expectSays(
      'docs/fuzzing.md',
      `runs each at the default ${constantOf(mutants, 'DEFAULT_RUNS').toLocaleString('en-US')} schedules`,
    );
    const seed = constantOf(mutants, 'FIRST_SEED');
    expectSays(
      'docs/fuzzing.md',
      `starts that search from a fixed seed (${seed}, then ${seed + 1} for a second attempt)`,
    );
  });

  it('a package version the docs name is the version the manifests pin', () => {
    const pinned = new Map<string, string>();
    for (const manifest of ['package.json', 'test/ecosystem/package.json']) {
      const json = JSON.parse(readFileSync(join(REPO, manifest), 'utf8')) as Record<string, Record<string, string>>;
      for (const field of ['dependencies', 'devDependencies', 'optionalDependencies'])
        for (const [name, version] of Object.entries(json[field] ?? {})) pinned.set(`${manifest} ${name}`, version);
    }
    const stale: string[] = [];
    let checked = 0;
    const docs = [
      'README.md',
      ...readdirSync(join(REPO, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    for (const doc of docs)
      for (const [, name, version] of prose(doc).matchAll(/`(@?[a-z0-9.-]+(?:\/[a-z0-9.-]+)?)` (\d+\.\d+\.\d+)\b/g)) {
        const pins = [...pinned]
          .filter(([key]) => key.endsWith(` ${name}`))
          .map(([key, pin]) => `${key.split(' ')[0]}: ${pin}`);
        if (pins.length > 0) checked += 1;
        if (pins.length > 0 && !pins.some((pin) => pin.endsWith(`: ${version}`)))
          stale.push(`${doc}: ${name} ${version}, pinned ${pins.join(', ')}`);
      }
    expect(checked, 'the docs name pinned packages with their version').toBeGreaterThan(0);
    expect(stale).toEqual([]);
  });
});
