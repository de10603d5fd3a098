import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, test } from 'vitest';

const TOOLKIT = new URL('..', import.meta.url).pathname;

/** Field names of the model APIs: each belongs to its protocol's folder (DESIGN.md section 7). */
const FIELD_NAMES = [
  'tool_calls',
  'tool_call_id',
  'choices',
  'finish_reason',
  'reasoning_content',
  'chat.completion',
  'function_call_output',
  'previous_response_id',
  'output_text',
  'tool_use',
  'tool_use_id',
  'tool_result',
  'functionCall',
  'functionResponse',
  'generateContent',
  'input_text',
  'max_tokens',
  'systemInstruction',
];

/** Every TypeScript source of the toolkit outside a protocol's own folder, tests and test fixtures left out. */
function sourcesOutsideProtocols(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const local = relative(TOOLKIT, path).split(sep);
    if (entry.isDirectory()) {
      const insideProtocol = local[0] === 'protocols' && local.length === 2;
      if (!insideProtocol && entry.name !== 'testing' && entry.name !== '__fixtures__')
        files.push(...sourcesOutsideProtocols(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

/** The code of a file without its comments: what the program knows, not what it explains. */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('wire protocols own their field names', () => {
  test('no toolkit code outside toolkit/protocols/<protocol>/ names a model API field', () => {
    const found = sourcesOutsideProtocols(TOOLKIT).flatMap((file) => {
      const code = codeOf(readFileSync(file, 'utf8'));
      return FIELD_NAMES.filter((name) => code.includes(name)).map((name) => `${relative(TOOLKIT, file)}: ${name}`);
    });
    expect(found).toEqual([]);
  });

  test('the scan sees the protocol folders it leaves out: each name is known to some protocol', () => {
    const protocols = readdirSync(new URL('.', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(TOOLKIT, 'protocols', entry.name));
    const known = protocols
      .flatMap((dir) =>
        readdirSync(dir)
          .filter((name) => name.endsWith('.ts'))
          .map((name) => join(dir, name)),
      )
      .map((file) => codeOf(readFileSync(file, 'utf8')))
      .join('\n');
    expect(
      ['tool_calls', 'tool_call_id', 'choices', 'function_call_output', 'previous_response_id'].filter(
        (name) => !known.includes(name),
      ),
    ).toEqual([]);
  });
});
