import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { readRecording } from './read-recording.js';

/** Writes version `mark` of a recording: many files, each saying which version it belongs to. */
async function writeVersion(dir: string, mark: string): Promise<void> {
  for (const folder of ['calls/main', 'transcripts/main', 'acp']) await mkdir(join(dir, folder), { recursive: true });
  await writeFile(join(dir, 'meta.json'), `{"version":"${mark}"}\n`);
  for (let i = 0; i < 12; i++) {
    await writeFile(join(dir, 'calls/main', `c${i}.jsonl`), `${mark}\n`.repeat(200));
    await writeFile(join(dir, 'transcripts/main', `c${i}.jsonl`), `${mark}\n`.repeat(200));
  }
}

/** A real process replacing `target` by version A, then B, then A… `count` times, the way a record saves. */
function replaceInLoop(target: string, a: string, b: string, count: number) {
  const script = `
    import { cp, rm } from 'node:fs/promises';
    import { replaceFolder } from ${JSON.stringify(join(import.meta.dirname, 'replace-folder.ts'))};
    const [target, a, b, count] = process.argv.slice(-4);
    for (let i = 0; i < Number(count); i++) {
      await replaceFolder(target, async (staged) => {
        await rm(staged, { recursive: true, force: true });
        await cp(i % 2 === 0 ? a : b, staged, { recursive: true });
      });
    }`;
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script, target, a, b, String(count)],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  return new Promise<number | null>((resolve) => child.on('close', resolve));
}

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('read-swap-');
});
afterEach(async () => {
  await removeTempDir(dir);
});

describe('a replay reads one version of a recording while another process replaces it', () => {
  test('every read of a recording being re-saved in a loop by another process is wholly one version: 0 mixed reads', async () => {
    const [a, b, target] = ['a', 'b', 'recordings/greets'].map((name) => join(dir, name)) as [string, string, string];
    await writeVersion(a, 'A');
    await writeVersion(b, 'B');
    await writeVersion(target, 'A');
    let writing = true;
    const writer = replaceInLoop(target, a, b, 100).finally(() => (writing = false));

    const seen = { A: 0, B: 0, mixed: 0 };
    const mixed: string[] = [];
    while (writing) {
      const files = readRecording(target);
      const marks = new Set(
        files
          .list(target)
          .map((file) => files.read(file) ?? '')
          .map((text) => (text.startsWith('{') ? (JSON.parse(text) as { version: string }).version : text.slice(0, 1))),
      );
      if (marks.size === 1 && files.list(target).length === 25) seen[[...marks][0] as 'A' | 'B']++;
      else {
        seen.mixed++;
        mixed.push(`${[...marks].join('+')} in ${files.list(target).length} files`);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }

    console.log(
      `read-while-replaced: ${seen.A} reads of version A, ${seen.B} of B, ${seen.mixed} mixed, across 100 swaps`,
    );
    expect(await writer).toBe(0);
    expect(mixed).toEqual([]);
    // Both versions were read, so reads did overlap the swaps.
    expect(seen.A).toBeGreaterThan(0);
    expect(seen.B).toBeGreaterThan(0);
  }, 300_000);
});
