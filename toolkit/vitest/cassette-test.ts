import { dirname, join, relative } from 'node:path';
import { test, type TestContext } from 'vitest';
import {
  CASSETTE_OPTION_KEYS,
  openCassette,
  type CassetteOptions,
  type CassetteSession,
} from '../cassette-session/open-cassette.js';
import { refuseUnknownOptions } from '../errors/cassette-error.js';

export interface CassetteTestOptions extends CassetteOptions {
  /**
   * The cassette folder of a test. Default: `__recordings__/<test name>/` beside the test file,
   * the names of enclosing `describe` blocks first, each a folder.
   */
  readonly dir?: (context: TestContext) => string;
}

/**
 * `test` with a `cassette` fixture: each test gets its own cassette, whose `fetch` you give to
 * your client. Replays by default (no network, no key); `NESTCAST_RECORD=all` re-records, `once`
 * records what does not exist yet, `missing` adds unrecorded sessions. When the test ends, replay
 * checks every recorded call was used; a recording is saved only if the test passed.
 */
export function withCassette(options: CassetteTestOptions = {}) {
  // Refused as the test file loads, not once per test.
  refuseUnknownOptions('withCassette', options, [...CASSETTE_OPTION_KEYS, 'dir']);
  const { dir: dirOf, ...cassetteOptions } = options;
  return test.extend<{ cassette: CassetteSession }>({
    cassette: async ({ task }, use) => {
      const context = { task } as TestContext;
      const dir = dirOf?.(context) ?? defaultCassetteDir(context);
      const cassette = await openCassette(dir, {
        ...cassetteOptions,
        recordHint: options.recordHint ?? rerecordCommand(context),
      });
      await use(cassette);
      await cassette.close({ discard: task.result?.state === 'fail' });
    },
  });
}

/** `withCassette()` with the defaults. */
export const cassetteTest = withCassette();

/** `<test file's folder>/__recordings__/<describe>/…/<test name>`, each name made safe for a file system. */
export function defaultCassetteDir({ task }: Pick<TestContext, 'task'>): string {
  const names: string[] = [task.name];
  for (
    let suite = task.suite;
    suite !== undefined && suite.name !== '' && suite !== (task.file as unknown);
    suite = suite.suite
  )
    names.unshift(suite.name);
  return join(dirname(task.file.filepath), '__recordings__', ...names.map(safeName));
}

function safeName(name: string): string {
  return (
    name
      .replace(/[^\p{L}\p{N}._-]+/gu, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 100) || 'unnamed'
  );
}

/** The command that re-records exactly this test, to quote in replay failures. */
function rerecordCommand({ task }: Pick<TestContext, 'task'>): string {
  const file = relative(process.cwd(), task.file.filepath) || task.file.filepath;
  const pattern = task.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, `'\\''`);
  return `NESTCAST_RECORD=all npx vitest run ${file} -t '${pattern}'`;
}
