import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFiles, makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { normalizeSessions, type NormalizedSession } from './normalize.js';
import { childLog, parentLog } from './testing/nested-logs.js';
import { readTranscripts, writeTranscripts } from './transcript.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('transcripts-');
});
afterEach(async () => {
  await removeTempDir(dir);
});

const nested = (): NormalizedSession[] =>
  normalizeSessions([
    parentLog(),
    childLog('main/call_b', { parentSession: 'parent-id' }),
    childLog('main/call_b/c1'),
    childLog('main/call_a'),
  ]);

describe('writeTranscripts and readTranscripts', () => {
  it('read gives back exactly what was written, in the same order', async () => {
    const sessions = nested();
    await writeTranscripts(dir, sessions);
    expect(await readTranscripts(dir)).toEqual(sessions);
  });

  it('writes one canonical, newline-terminated JSONL file per lineage plus the manifest, and no temp files', async () => {
    await writeTranscripts(dir, nested());

    expect(await listFiles(dir)).toEqual([
      'main.jsonl',
      'main/call_a.jsonl',
      'main/call_b.jsonl',
      'main/call_b/c1.jsonl',
      'sessions.json',
    ]);
    const lines = (await readFile(join(dir, 'main/call_b.jsonl'), 'utf8')).split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(
      '{"createdAt":0,"cwd":"<cwd>","delegationDepth":1,"id":"<session:2>","lineage":"main/call_b","origin":"subagent","parentSession":"<session:1>","spawnedBy":"call_b","type":"session","version":1}',
    );
    expect(lines[1]).toBe(
      '{"data":{"content":[{"text":"task for main/call_b","type":"text"}]},"seq":0,"time":0,"type":"user/message"}',
    );
  });

  it('removes transcripts of lineages the new run no longer has, and the folders they leave empty', async () => {
    await writeTranscripts(dir, nested());
    await writeFile(join(dir, 'README.md'), 'kept', 'utf8');

    await writeTranscripts(dir, normalizeSessions([parentLog(), childLog('main/call_a')]));

    expect(await listFiles(dir)).toEqual(['README.md', 'main.jsonl', 'main/call_a.jsonl', 'sessions.json']);
    expect(await readdir(join(dir, 'main'))).toEqual(['call_a.jsonl']);
    expect((await readTranscripts(dir)).map((session) => session.header.lineage)).toEqual(['main', 'main/call_a']);
  });

  it('a folder without transcripts is TRANSCRIPTS_NOT_FOUND, telling how to create them', async () => {
    await expect(readTranscripts(join(dir, 'none'))).rejects.toMatchObject({
      code: 'TRANSCRIPTS_NOT_FOUND',
      message: expect.stringContaining('nestcast record <scenario>'),
    });
    await expect(
      readTranscripts(join(dir, 'none'), { regenerate: 'Record them with: nestcast record demo' }),
    ).rejects.toThrow(/Record them with: nestcast record demo$/);
  });

  it('a manifest naming a missing file is TRANSCRIPT_INVALID, naming the file and its lineage', async () => {
    await writeTranscripts(dir, nested());
    await writeFile(
      join(dir, 'sessions.json'),
      JSON.stringify({ sessions: [{ file: 'main/gone.jsonl', lineage: 'main/gone' }] }),
      'utf8',
    );

    await expect(readTranscripts(dir)).rejects.toMatchObject({
      code: 'TRANSCRIPT_INVALID',
      message: expect.stringMatching(/lists main\/gone\.jsonl \(session main\/gone\)/),
    });
  });

  it('a manifest pointing outside its folder is TRANSCRIPT_INVALID', async () => {
    await writeFile(
      join(dir, 'sessions.json'),
      JSON.stringify({ sessions: [{ file: '../escape.jsonl', lineage: 'main' }] }),
      'utf8',
    );

    await expect(readTranscripts(dir)).rejects.toMatchObject({
      code: 'TRANSCRIPT_INVALID',
      message: expect.stringContaining('sessions[0]'),
    });
  });

  it('a transcript cut off mid-line is TRANSCRIPT_INVALID at file:line, not silently repaired', async () => {
    await writeTranscripts(dir, nested());
    const file = join(dir, 'main.jsonl');
    await writeFile(file, `${await readFile(file, 'utf8')}{"seq":`, 'utf8');

    await expect(readTranscripts(dir)).rejects.toMatchObject({
      code: 'TRANSCRIPT_INVALID',
      message: expect.stringContaining(`${file}:`),
    });
  });

  it('a transcript whose header names another lineage than the manifest is TRANSCRIPT_INVALID', async () => {
    await writeTranscripts(dir, nested());
    await writeFile(join(dir, 'main/call_a.jsonl'), await readFile(join(dir, 'main/call_b.jsonl'), 'utf8'), 'utf8');

    await expect(readTranscripts(dir)).rejects.toMatchObject({
      code: 'TRANSCRIPT_INVALID',
      message: expect.stringContaining("the header's lineage is main/call_b"),
    });
  });
});
