import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { buildLog } from '../../harness/session/log-builder.js';
import type { SessionLog } from '../../harness/session/index.js';
import { normalizeSessions } from './normalize.js';
import { childLog, parentLog } from './testing/nested-logs.js';

const PARENT = '0b7c3f4e-1111-4a2b-8c3d-000000000001';
const CHILD = '0b7c3f4e-2222-4a2b-8c3d-000000000002';
const CWD = '/home/dev/project';

function run(): SessionLog[] {
  return [parentLog({ id: PARENT, cwd: CWD }), childLog('main/call_b', { id: CHILD, parentSession: PARENT, cwd: CWD })];
}

describe('normalizeSessions', () => {
  it('turns session ids into ordinal tokens in harvest order, so a child still points at its parent', () => {
    const [parent, child] = normalizeSessions(run());

    expect(parent?.header.id).toBe('<session:1>');
    expect(child?.header.id).toBe('<session:2>');
    expect(child?.header.parentSession).toBe('<session:1>');
  });

  it('replaces a session id inside any string, even in an unrelated session', () => {
    const mention = buildLog({ id: 'other', lineage: 'side' })
      .user(`compare ${CHILD}.jsonl with session ${PARENT}`)
      .build();
    const [, , normalized] = normalizeSessions([...run(), mention]);

    expect(normalized?.events[0]?.data).toEqual({
      content: [{ type: 'text', text: 'compare <session:2>.jsonl with session <session:1>' }],
    });
  });

  it('zeroes createdAt and every event time but keeps seq', () => {
    const [parent] = normalizeSessions(run());

    expect(parent?.header.createdAt).toBe(0);
    expect(parent?.events.map((event) => [event.seq, event.time])).toEqual(
      parent?.events.map((_, index) => [index, 0]),
    );
  });

  it('turns other UUIDs into first-seen ordinals, the same UUID (any case) into the same token', () => {
    const a = randomUUID();
    const b = randomUUID();
    const log = buildLog({ id: 's' }).user(`${b} then ${a}`).user(`${b.toUpperCase()} again`).build();
    const [normalized] = normalizeSessions([log]);

    expect(
      normalized?.events.map((event) => (event.type === 'user/message' ? event.data.content[0]?.text : '')),
    ).toEqual(['<uuid:1> then <uuid:2>', '<uuid:1> again']);
  });

  it('replaces the cwd, sessions root, extra temp dirs and the OS temp dir with placeholders', () => {
    const sessionsRoot = join(tmpdir(), 'nestcast-sessions-x1');
    const scratch = join(tmpdir(), 'nestcast-scratch-y2');
    const text = `${CWD}/src ${sessionsRoot}/${CHILD}.jsonl ${scratch}/out.txt ${tmpdir()}/other`;
    const log = buildLog({ id: CHILD, cwd: CWD }).user(text).build();

    const [normalized] = normalizeSessions([log], { sessionsRoot, tempDirs: [scratch] });

    expect(normalized?.header.cwd).toBe('<cwd>');
    expect(normalized?.events[0]?.data).toEqual({
      content: [{ type: 'text', text: '<cwd>/src <sessions>/<session:1>.jsonl <tmp:1>/out.txt <tmp>/other' }],
    });
  });

  it('scrubs object keys as well as values, deep inside tool arguments', () => {
    const log = buildLog({ id: PARENT, cwd: CWD })
      .turn((t) =>
        t.step((s) => s.call('call_1', 'read', { files: { [`${CWD}/a.ts`]: [PARENT] } }).result('call_1', 'ok')),
      )
      .build();
    const [normalized] = normalizeSessions([log]);

    expect(normalized?.events[2]?.data).toMatchObject({ args: { files: { '<cwd>/a.ts': ['<session:1>'] } } });
  });

  it('is idempotent: normalising a normalised run changes nothing', () => {
    const context = { cwd: CWD, sessionsRoot: join(tmpdir(), 'sessions-z'), tempDirs: [join(tmpdir(), 'scratch-z')] };
    const once = normalizeSessions(run(), context);

    expect(normalizeSessions(once, context)).toEqual(once);
  });

  const fragment = fc.constantFrom(
    PARENT,
    CHILD,
    CWD,
    `${CWD}/x`,
    tmpdir(),
    '/elsewhere',
    'ABCDEF01-0000-4000-8000-00000000000a',
    ' ',
    '/',
    '.',
    '-',
    '<',
    '>',
    'file://',
    'word',
  );
  test.prop([fc.array(fc.oneof(fragment, fc.string({ maxLength: 6 })), { maxLength: 12 })])(
    'normalisation is idempotent for any text built from ids, paths and UUIDs',
    (parts) => {
      const text = parts.join('');
      const logs = [
        parentLog({ id: PARENT, cwd: CWD }),
        buildLog({ id: CHILD, lineage: 'main/c1', spawnedBy: 'c1', parentSession: PARENT, cwd: text })
          .user(text)
          .build(),
      ];
      const once = normalizeSessions(logs);
      expect(normalizeSessions(once)).toEqual(once);
    },
  );
});
