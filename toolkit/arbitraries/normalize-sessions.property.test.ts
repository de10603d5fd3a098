import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { SessionLog } from '../../harness/session/types.js';
import { normalizeSessions } from '../harvest/normalize.js';
import { fuzzRuns } from './fuzz-runs.js';
import { sessionLogArbitrary } from './session-log-arbitrary.js';

const CWD = join(tmpdir(), 'nestcast-run-1234', 'work');
const SESSIONS = join(tmpdir(), 'nestcast-run-1234', 'sessions');

/** A harvested run: a parent and its children, real UUID session ids, folders of the run inside messages. */
const harvestedRun = fc
  .tuple(
    fc.array(sessionLogArbitrary({ closed: true }), { minLength: 1, maxLength: 3 }),
    fc.array(fc.uuid(), { minLength: 3, maxLength: 3 }),
  )
  .map(([logs, ids]): SessionLog[] =>
    logs.map((log, index) => ({
      header: {
        ...log.header,
        id: ids[index] ?? `s${index}`,
        cwd: CWD,
        createdAt: 1_700_000_000_000 + index,
        ...(index > 0
          ? {
              parentSession: ids[0],
              lineage: `main/call_${index}`,
              spawnedBy: `call_${index}`,
              origin: 'subagent' as const,
              delegationDepth: 1,
            }
          : {}),
      },
      events: log.events.map((event) =>
        event.type === 'user/message'
          ? {
              ...event,
              data: { content: [{ type: 'text', text: `read ${CWD}/a.ts and ${SESSIONS}/${ids[0] ?? ''}.jsonl` }] },
            }
          : event,
      ),
    })),
  );

describe('normalising harvested sessions', () => {
  test.prop([harvestedRun], { numRuns: fuzzRuns(200) })('is idempotent', (sessions) => {
    const context = { sessionsRoot: SESSIONS };
    const once = normalizeSessions(sessions, context);
    expect(normalizeSessions(once, context)).toEqual(once);
  });

  test.prop([harvestedRun], { numRuns: fuzzRuns(200) })(
    'keeps the parent-child correlation and leaves no id, folder or time of the run',
    (sessions) => {
      const normalized = normalizeSessions(sessions, { sessionsRoot: SESSIONS });
      const [parent, ...children] = normalized;
      for (const child of children) expect(child.header.parentSession).toBe(parent?.header.id);
      const text = JSON.stringify(normalized);
      for (const session of sessions) expect(text).not.toContain(session.header.id);
      expect(text).not.toContain(CWD);
      expect(normalized.every((session) => session.events.every((event) => event.time === 0))).toBe(true);
    },
  );
});
