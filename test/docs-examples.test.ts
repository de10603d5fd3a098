import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../harness/session/invariants.js';
import { parseSessionLog } from '../harness/session/jsonl.js';
import { checkExchange } from '../toolkit/acp-cassette/exchange-schema.js';
import { compileScript, validScript } from '../toolkit/authored/compile-script.js';
import { checkMeta } from '../toolkit/cassette/validators.js';
import { main } from '../toolkit/cli/main.js';
import { docSnippet } from './support/doc-snippet.js';

/** The example files the docs show are files nestcast reads: each is loaded as nestcast loads it. */
const REPO = resolve(import.meta.dirname, '..');

/** The first ```json block after a heading of a doc, parsed. */
async function jsonAfter(doc: string, heading: string): Promise<unknown> {
  const text = await readFile(join(REPO, doc), 'utf8');
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`${doc} has no heading "${heading}"`);
  const block = /```json\n([\s\S]*?)```/.exec(text.slice(at))?.[1];
  if (block === undefined) throw new Error(`${doc}: no json block after "${heading}"`);
  return JSON.parse(block);
}

describe('the example files of the docs', () => {
  it("docs/cassette-format.md's meta.json is a valid meta.json", async () => {
    expect(checkMeta(await jsonAfter('docs/cassette-format.md', '## meta.json'))).toMatchObject({ ok: true });
  });

  it("docs/recording.md's authored script is valid, and compiles with the tool-call id its child session is named after", async () => {
    const script = validScript(await jsonAfter('docs/recording.md', '## Authored scripts'), 'docs/recording.md');
    const child = Object.keys(script.lineages).find((lineage) => lineage !== 'main') ?? '';
    expect(JSON.stringify(compileScript(script))).toContain(`"${child.slice('main/'.length)}"`);
  });

  it("docs/cassette-format.md's ACP exchange example has the fields of an exchange file, elided frames aside", async () => {
    const doc = await readFile(join(REPO, 'docs/cassette-format.md'), 'utf8');
    const block = /```json\n(\{\n {2}"format": "nestcast-acp-exchange"[\s\S]*?)```/.exec(doc)?.[1] ?? '';
    // The frames' params and results are elided (`{…}`) in the doc; the example keeps the rest whole.
    const exchange = JSON.parse(block.replaceAll('{…}', '{}')) as unknown;
    expect(checkExchange(exchange)).toMatchObject({ ok: true });
  });

  it("docs/architecture.md's session log is a valid session file, keeping every session rule", async () => {
    const doc = await readFile(join(REPO, 'docs/architecture.md'), 'utf8');
    const block = /```json\n(\{"type":"session"[\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const log = parseSessionLog(block, 'docs/architecture.md');
    expect(log.recovered).toBeUndefined();
    expect(log.events.length).toBeGreaterThan(0);
    expect(checkInvariants(log, { finished: true })).toEqual([]);
  });

  it("docs/scenarios.md's vitest file is docs/vitest.md's test/scenarios.test.ts, which test/newcomer/packed-tarball.test.ts runs", async () => {
    const doc = await readFile(join(REPO, 'docs/scenarios.md'), 'utf8');
    const shown = /one test per scenario:\n\n(?:<!--.*-->\n\n)?```ts\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(shown).toBe(await docSnippet(join(REPO, 'docs/vitest.md'), 'test/scenarios.test.ts'));
  });

  it("README.md's CLI summary names the commands `nestcast --help` lists, in its order", async () => {
    let help = '';
    const io = {
      stdout: (text: string) => void (help += text),
      stderr: () => undefined,
      env: {},
      cwd: REPO,
      color: false,
    };
    expect(await main(['--help'], io)).toBe(0);
    const listed = [...(help.split('Commands:\n')[1] ?? '').matchAll(/^ {2}(\S+)/gm)].map((match) => match[1]);
    const readme = await readFile(join(REPO, 'README.md'), 'utf8');
    const block = /## The CLI\n\n(?:<!--.*-->\n\n)?```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(listed.length).toBeGreaterThan(0);
    expect([...block.matchAll(/^nestcast (\S+)/gm)].map((match) => match[1])).toEqual(listed);
  });
});
