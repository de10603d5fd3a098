import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../harness/schema.js';
import { checkerSchemas, compileChecker } from './compile-checker.js';

const TOOLKIT = join(import.meta.dirname, '..');
const CALL = /\bcompileChecker(?:<[^>(]*>)?\(/g;

/** The toolkit's source files that call `compileChecker`, with how many calls each makes. */
function callSites(): { file: string; calls: number }[] {
  return readdirSync(TOOLKIT, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.includes('.test.'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.endsWith(join('validation', 'compile-checker.ts')))
    .map((file) => ({ file, calls: readFileSync(file, 'utf8').match(CALL)?.length ?? 0 }))
    .filter((site) => site.calls > 0);
}

/** What JSON Schema's meta-schema (draft-07, ajv's default) finds wrong with `schema`, as one line; '' when nothing. */
function metaSchemaProblems(schema: JsonSchema): string {
  const ajv = new Ajv({ strict: false, allErrors: true });
  return ajv.validateSchema(schema) === true ? '' : ajv.errorsText(ajv.errors);
}

describe('the schemas compiled without a meta-schema check', () => {
  it('are every one the toolkit compiles, and each is a valid JSON Schema', async () => {
    const sites = callSites();
    for (const site of sites) await import(pathToFileURL(site.file).href);
    // Every call runs once, as its module loads: one schema each.
    const expected = sites.reduce((sum, site) => sum + site.calls, 0);
    expect(checkerSchemas()).toHaveLength(expected);
    expect(sites.map((site) => relative(TOOLKIT, site.file))).toContain(join('cassette', 'validators.ts'));
    const problems = checkerSchemas()
      .map((schema, index) => ({ index, problems: metaSchemaProblems(schema) }))
      .filter((found) => found.problems !== '');
    expect(problems).toEqual([]);
  });

  it('the meta-schema check finds what compileChecker alone lets by', () => {
    // A description that is not text, examples that are not a list: not a JSON Schema, yet it compiles.
    const broken = { type: 'object', required: ['name'], description: 42, properties: { name: { examples: 'x' } } };
    expect(metaSchemaProblems(broken)).toBe(
      'data/description must be string, data/properties/name/examples must be array',
    );
    const check = compileChecker<{ name: unknown }>(broken);
    expect(check({ name: 'x' })).toEqual({ ok: true, value: { name: 'x' } });
    expect(check({})).toEqual({ ok: false, problem: "(root) must have required property 'name'" });
  });
});
