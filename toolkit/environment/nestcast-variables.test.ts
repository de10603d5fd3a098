import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openCassette } from '../cassette-session/open-cassette.js';
import { checkNestcastVariables, NESTCAST_VARIABLES } from './nestcast-variables.js';

const REPO = resolve(import.meta.dirname, '..', '..');

describe('checkNestcastVariables', () => {
  test('lets every variable nestcast reads through, and any variable not named NESTCAST_…', () => {
    const env = Object.fromEntries(NESTCAST_VARIABLES.map((name) => [name, 'x']));
    expect(() =>
      checkNestcastVariables({ ...env, PATH: '/bin', OPENAI_API_KEY: 'sk-x', MY_NESTCAST_THING: '1' }),
    ).not.toThrow();
  });

  test('refuses a misspelt one, naming the one it was closest to, and one unlike any without a guess', () => {
    expect(() => checkNestcastVariables({ NESTCAST_RECROD: 'all' })).toThrow(
      expect.objectContaining({
        code: 'NESTCAST_VARIABLE_UNKNOWN',
        message: expect.stringMatching(
          /^The environment sets NESTCAST_RECROD, which nestcast does not read: did you mean NESTCAST_RECORD\? Fix its name or unset it\. The variables nestcast reads: NESTCAST_RECORD, /,
        ),
      }),
    );
    expect(() => checkNestcastVariables({ NESTCAST_COLOUR: '1' })).toThrow(
      /^The environment sets NESTCAST_COLOUR, which nestcast does not read\. Fix its name/,
    );
  });

  test('a cassette opened under a misspelt NESTCAST_RECORD is refused, not replayed as if the variable were unset', async () => {
    const before = process.env['NESTCAST_RECORDS'];
    process.env['NESTCAST_RECORDS'] = 'all';
    try {
      await expect(openCassette(join(REPO, 'no-such-cassette'))).rejects.toMatchObject({
        code: 'NESTCAST_VARIABLE_UNKNOWN',
        message: expect.stringContaining('did you mean NESTCAST_RECORD?'),
      });
    } finally {
      if (before === undefined) delete process.env['NESTCAST_RECORDS'];
      else process.env['NESTCAST_RECORDS'] = before;
    }
  });
});

/** Names that look like variables but are not: constants, an error code, and the docs' example of a misspelt one. */
const NOT_VARIABLES = new Set([
  'NESTCAST_VERSION',
  'NESTCAST_VARIABLES',
  'NESTCAST_VARIABLE_UNKNOWN',
  'NESTCAST_RECROD',
]);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(join(REPO, dir), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('node_modules'))
    .map((entry) => relative(REPO, join(entry.parentPath, entry.name)));
}

test('the list holds every NESTCAST_ variable the sources, scripts and docs name (tests aside: they misspell some on purpose), and nothing else', async () => {
  const files = [
    ...(
      await Promise.all(
        ['harness', 'providers', 'toolkit', 'scenarios', 'bench', 'test', 'docs', '.ci'].map(filesUnder),
      )
    ).flat(),
    'README.md',
  ].filter((file) => /\.(ts|mts|mjs|js|md|json)$|^\.ci\//.test(file) && !file.endsWith('.test.ts'));
  const named = new Set<string>();
  for (const file of files)
    for (const match of (await readFile(join(REPO, file), 'utf8')).matchAll(/\bNESTCAST_[A-Z0-9_]+\b/g))
      if (!NOT_VARIABLES.has(match[0])) named.add(match[0]);
  expect([...named].sort()).toEqual([...NESTCAST_VARIABLES].sort());
});
