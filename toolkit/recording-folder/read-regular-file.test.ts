import { execFileSync } from 'node:child_process';
import { cp, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { loadCassette } from '../cassette/load-cassette.js';
import { readTranscripts } from '../harvest/transcript.js';

let recording: string;
beforeEach(async () => {
  recording = join(await makeTempDir('regular-'), 'hello-child');
  await cp(join(process.cwd(), 'recordings', 'hello-child'), recording, { recursive: true });
});
afterEach(async () => {
  await removeTempDir(join(recording, '..'));
});

/** Replaces a file of the recording with a FIFO no one writes to: reading it would block forever. */
async function fifoAt(path: string): Promise<void> {
  await rm(path);
  execFileSync('mkfifo', [path]);
}

describe('reading a recording never blocks on what is not a regular file', () => {
  test('a calls file that is a FIFO is CASSETTE_INVALID naming the file and what it is; a link to /dev/zero is RECORDING_LINK', async () => {
    const calls = join(recording, 'calls', 'main.jsonl');
    await fifoAt(calls);
    await expect(loadCassette(recording)).rejects.toMatchObject({
      code: 'CASSETTE_INVALID',
      message: expect.stringContaining(`${calls} is a FIFO, not a regular file`),
    });

    await rm(calls);
    await symlink('/dev/zero', calls);
    await expect(loadCassette(recording)).rejects.toMatchObject({
      code: 'RECORDING_LINK',
      message: expect.stringContaining(calls),
    });
  });

  test('a meta.json that is a FIFO is CASSETTE_INVALID', async () => {
    await fifoAt(join(recording, 'meta.json'));
    await expect(loadCassette(recording)).rejects.toMatchObject({
      code: 'CASSETTE_INVALID',
      message: expect.stringContaining('meta.json is a FIFO, not a regular file'),
    });
  });

  test('a transcript or its manifest that is a FIFO is CASSETTE_INVALID: transcripts are read as part of the recording', async () => {
    const transcripts = join(recording, 'transcripts');
    await fifoAt(join(transcripts, 'main.jsonl'));
    await expect(readTranscripts(transcripts)).rejects.toMatchObject({
      code: 'CASSETTE_INVALID',
      message: expect.stringContaining('main.jsonl is a FIFO, not a regular file'),
    });

    await rm(join(transcripts, 'main.jsonl'));
    await cp(
      join(process.cwd(), 'recordings', 'hello-child', 'transcripts', 'main.jsonl'),
      join(transcripts, 'main.jsonl'),
    );
    await fifoAt(join(transcripts, 'sessions.json'));
    await expect(readTranscripts(transcripts)).rejects.toMatchObject({
      code: 'CASSETTE_INVALID',
      message: expect.stringContaining('sessions.json is a FIFO, not a regular file'),
    });
  });
});
