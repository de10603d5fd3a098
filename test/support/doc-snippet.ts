import { readFile } from 'node:fs/promises';

/**
 * The code block that follows the caption line `` `<caption>`: `` in a markdown file, so a test
 * can run a doc's snippet exactly as a reader would copy it.
 */
export async function docSnippet(docFile: string, caption: string): Promise<string> {
  const doc = await readFile(docFile, 'utf8');
  const at = doc.indexOf(`\`${caption}\`:\n`);
  if (at < 0) throw new Error(`${docFile} has no snippet captioned \`${caption}\`:`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(doc.slice(at));
  if (!block?.[1]) throw new Error(`${docFile}: no code block after \`${caption}\`:`);
  return block[1];
}

/** Each line trimmed: a doc's excerpt of a test compares with the test's source, indentation aside. */
export function withoutIndentation(code: string): string {
  return code
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .trim();
}
