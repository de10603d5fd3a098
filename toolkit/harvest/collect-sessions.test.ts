import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildLog } from '../../harness/session/log-builder.js';
import { serializeSessionLog } from '../../harness/session/index.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { harvestSessions } from './collect-sessions.js';
import { childLog, parentLog, writeLogFile } from './testing/nested-logs.js';

let root: string;
beforeEach(async () => {
  root = await makeTempDir('harvest-');
});
afterEach(async () => {
  await removeTempDir(root);
});

describe('harvestSessions', () => {
  it('finds logs at any depth and orders them main first, then depth-first in spawn order, not by createdAt', async () => {
    await writeLogFile(root, 'parent-id.jsonl', parentLog({ createdAt: 100 }));
    // call_a was spawned second but started first by the clock.
    await writeLogFile(root, 'a.jsonl', childLog('main/call_a', { createdAt: 200 }));
    await writeLogFile(root, 'b.jsonl', childLog('main/call_b', { createdAt: 300 }));
    await writeLogFile(root, 'acp/child/grandchild.jsonl', childLog('main/call_b/c1', { createdAt: 50 }));

    const harvested = await harvestSessions(root);

    expect(harvested.map((session) => session.header.lineage)).toEqual([
      'main',
      'main/call_b',
      'main/call_b/c1',
      'main/call_a',
    ]);
    expect(harvested[2]?.path).toBe(join(root, 'acp/child/grandchild.jsonl'));
    expect(harvested.every((session) => session.violations.length === 0 && session.recovered === undefined)).toBe(true);
  });

  it('reports a crash-cut last line on the entry and the turn it left open as a violation', async () => {
    const open = buildLog({ lineage: 'main/call_a', spawnedBy: 'call_a' })
      .turn((t) => t.step((s) => s.assistant('half')), { open: true })
      .build();
    await writeLogFile(root, 'parent-id.jsonl', parentLog());
    await writeLogFile(root, 'a.jsonl', open, '{"seq":4,"time":17');

    const [, child] = await harvestSessions(root);

    expect(child?.recovered).toMatchObject({ line: 6, droppedText: '{"seq":4,"time":17' });
    expect(child?.events).toHaveLength(4);
    expect(child?.violations.map((violation) => violation.rule)).toEqual(['finished-closed']);
  });

  it('attaches every invariant violation of a log to its entry', async () => {
    const unanswered = buildLog()
      .turn((t) => t.step((s) => s.call('call_1', 'ls')))
      .build();
    await writeLogFile(root, 'main.jsonl', unanswered);

    const [main] = await harvestSessions(root);

    expect(main?.violations).toEqual([expect.objectContaining({ rule: 'tool-call-answered', seq: 2 })]);
  });

  it('orders sessions sharing a lineage by createdAt, then by file path', async () => {
    await writeLogFile(root, 'parent-id.jsonl', parentLog());
    await writeLogFile(root, 'z.jsonl', childLog('main/call_a', { id: 'early', createdAt: 5 }));
    await writeLogFile(root, 'b.jsonl', childLog('main/call_a', { id: 'late-b', createdAt: 9 }));
    await writeLogFile(root, 'a.jsonl', childLog('main/call_a', { id: 'late-a', createdAt: 9 }));

    const harvested = await harvestSessions(root);

    expect(harvested.map((session) => session.header.id)).toEqual(['parent-id', 'early', 'late-a', 'late-b']);
  });

  it('ignores files that are not session logs, such as atomic-write temp files', async () => {
    await writeLogFile(root, 'main.jsonl', parentLog());
    await writeFile(join(root, '.main.jsonl.123.tmp'), 'half', 'utf8');
    await writeFile(join(root, 'notes.txt'), 'hello', 'utf8');

    expect(await harvestSessions(root)).toHaveLength(1);
  });

  it('an empty root harvests nothing; a missing root is SESSIONS_ROOT_NOT_FOUND naming it', async () => {
    expect(await harvestSessions(root)).toEqual([]);
    const missing = join(root, 'nope');
    await expect(harvestSessions(missing)).rejects.toMatchObject({
      code: 'SESSIONS_ROOT_NOT_FOUND',
      message: expect.stringContaining(missing),
    });
  });

  it('a log damaged before its last line fails the harvest with SESSION_CORRUPT at file:line', async () => {
    const lines = serializeSessionLog(parentLog()).split('\n');
    lines[2] = '{broken';
    await writeFile(join(root, 'main.jsonl'), lines.join('\n'), 'utf8');

    await expect(harvestSessions(root)).rejects.toMatchObject({
      code: 'SESSION_CORRUPT',
      message: expect.stringContaining('main.jsonl:3'),
    });
  });
});
