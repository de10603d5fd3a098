import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MUTANTS } from './mutants/index.js';
import { LIFECYCLE_PROMISES } from './promises.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The ids listed under "The promises, by id" in docs/subagents.md: one `- \`id\`: ...` item each. */
function providerPagePromises(): string[] {
  const page = read('docs/subagents.md');
  const start = page.indexOf('### The promises, by id');
  const section = page.slice(start, page.indexOf('\n### ', start + 1));
  return [...section.matchAll(/^- `([a-z-]+)`:/gm)].map((match) => match[1] ?? '');
}

/** The rows of docs/fuzzing.md's promise table: the ids of its first column, and the mutants of its third. */
function fuzzingTable(): { ids: string[]; mutants: string[] } {
  const page = read('docs/fuzzing.md');
  const start = page.indexOf('| promise id');
  const rows = page
    .slice(start)
    .split('\n')
    .slice(2)
    .filter((line) => line.startsWith('|'));
  const cells = rows.map((row) => row.split('|').map((cell) => cell.trim()));
  return {
    ids: cells.flatMap((cell) => [...(cell[1] ?? '').matchAll(/`([a-z-]+)`/g)].map((match) => match[1] ?? '')),
    mutants: cells.flatMap((cell) => [...(cell[3] ?? '').matchAll(/`([a-z-]+)\.ts`/g)].map((match) => match[1] ?? '')),
  };
}

/** The suite's own sources (what reports violations), without the list itself and the tests. */
function suiteSource(): string {
  const dir = new URL('./', import.meta.url);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'promises.ts')
    .map((name) => readFileSync(new URL(name, dir), 'utf8'))
    .join('\n');
}

describe('the lifecycle promises', () => {
  const sorted = (ids: readonly string[]): string[] => [...new Set(ids)].sort();

  it('are the same list on the provider author page as in the suite', () => {
    const listed = providerPagePromises();
    expect(listed.length, 'each id is listed once').toBe(new Set(listed).size);
    expect(sorted(listed)).toEqual(sorted(LIFECYCLE_PROMISES));
  });

  it("are each in docs/fuzzing.md's table, which names nothing else", () => {
    expect(sorted(fuzzingTable().ids)).toEqual(sorted(LIFECYCLE_PROMISES));
  });

  it('are each reported by a check of the suite', () => {
    const source = suiteSource();
    const unchecked = LIFECYCLE_PROMISES.filter((id) => !source.includes(`'${id}'`));
    expect(unchecked).toEqual([]);
  });

  it("name, in docs/fuzzing.md's table, every mutant of the mutation set beside the promise it breaks", () => {
    const named = fuzzingTable().mutants;
    const missing = MUTANTS.map((mutant) => mutant.module.replace(/^.*\/|\.ts$/g, '')).filter(
      (name) => !named.includes(name),
    );
    expect(missing).toEqual([]);
  });
});
