import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { fuzzRuns } from './fuzz-runs.js';
import { anyInvalidLogArbitrary, invalidLogArbitrary } from './invalid-log-arbitrary.js';
import { sessionLogArbitrary } from './session-log-arbitrary.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { balancedPrefix } from '../../harness/session/balanced-prefix.js';
import { checkInvariants, INVARIANT_RULES } from '../../harness/session/invariants.js';
import { parseSessionLog, serializeSessionLog } from '../../harness/session/jsonl.js';
import { SessionStore } from '../../harness/session/session-store.js';
import type { SessionEvent } from '../../harness/session/types.js';

const runs = { numRuns: fuzzRuns(300) };

const isClosed = (events: readonly SessionEvent[]): boolean =>
  events.findLastIndex((e) => e.type === 'turn/start') < events.findLastIndex((e) => e.type === 'turn/end') ||
  !events.some((e) => e.type === 'turn/start');

describe('generated valid logs', () => {
  test.prop([sessionLogArbitrary()], runs)('pass the invariant checker (as finished when every turn ended)', (log) => {
    expect(checkInvariants(log, { finished: isClosed(log.events) })).toEqual([]);
  });

  test.prop([sessionLogArbitrary({ closed: false })], runs)(
    'with an open last turn are caught as finished-closed when handed over as finished',
    (log) => {
      expect(checkInvariants(log, { finished: true }).map((v) => v.rule)).toEqual(['finished-closed']);
    },
  );
});

describe('mutated logs', () => {
  test.prop([anyInvalidLogArbitrary()], { numRuns: fuzzRuns(600) })(
    'are caught with exactly the rule their mutation breaks',
    (broken) => {
      const rules = [...new Set(checkInvariants(broken.log, broken.options).map((v) => v.rule))];
      expect(rules, broken.mutation).toEqual([broken.rule]);
    },
  );

  // One property per rule, so a class the mixed property rarely draws still gets its own runs.
  describe.each(INVARIANT_RULES)('breaking %s', (rule) => {
    test.prop([invalidLogArbitrary(rule)], { numRuns: fuzzRuns(40) })(
      'is reported under that rule id only',
      (broken) => {
        const violations = checkInvariants(broken.log, broken.options);
        expect(violations.length, broken.mutation).toBeGreaterThan(0);
        expect(
          violations.every((v) => v.rule === rule),
          JSON.stringify(violations),
        ).toBe(true);
      },
    );
  });
});

describe('balancedPrefix', () => {
  test.prop([sessionLogArbitrary()], runs)('is a prefix of its input that ends at a turn/end (or is empty)', (log) => {
    const prefix = balancedPrefix(log.events);
    expect(log.events.slice(0, prefix.length)).toEqual(prefix);
    if (prefix.length > 0) expect(prefix.at(-1)?.type).toBe('turn/end');
  });

  test.prop([sessionLogArbitrary()], runs)(
    'passes the checker as a closed, finished log under the same header',
    (log) => {
      const { seedLength: _ignored, ...header } = log.header;
      const prefix = balancedPrefix(log.events);
      const seedLength =
        log.header.seedLength !== undefined && log.header.seedLength <= prefix.length
          ? { seedLength: log.header.seedLength }
          : {};
      expect(checkInvariants({ header: { ...header, ...seedLength }, events: prefix }, { finished: true })).toEqual([]);
    },
  );

  test.prop([sessionLogArbitrary()], runs)(
    'is the longest prefix ending at a turn boundary: no later event ends a turn',
    (log) => {
      const prefix = balancedPrefix(log.events);
      expect(log.events.slice(prefix.length).some((event) => event.type === 'turn/end')).toBe(false);
    },
  );

  test.prop([sessionLogArbitrary()], runs)('is idempotent', (log) => {
    const once = balancedPrefix(log.events);
    expect(balancedPrefix(once)).toEqual(once);
  });
});

describe('a fork child seeded with balancedPrefix', () => {
  let root: string;
  let store: SessionStore;
  let made = 0;
  beforeAll(async () => {
    root = await makeTempDir('fork-seed-');
    store = new SessionStore({ root });
  });
  afterAll(() => removeTempDir(root));

  test.prop([sessionLogArbitrary(), fc.boolean()], { numRuns: fuzzRuns(200) })(
    'passes the checker after its own turn, with seedLength recorded explicitly',
    async (parent, calls) => {
      const seed = balancedPrefix(parent.events);
      const child = await store.create({
        id: `child-${++made}`,
        lineage: 'main/call_fork',
        spawnedBy: 'call_fork',
        origin: 'subagent',
        delegationDepth: 1,
        seed,
      });
      try {
        const turn = Math.max(0, ...seed.map((e) => (e.type === 'turn/start' ? e.data.turn : 0))) + 1;
        child.append({ type: 'user/message', data: { content: [{ type: 'text', text: 'review it' }] } });
        child.append({ type: 'turn/start', data: { turn } });
        child.append({ type: 'step/start', data: { turn, step: 1 } });
        if (calls) {
          child.append({ type: 'tool/call', data: { turn, step: 1, id: 'child_call', name: 'ls', args: {} } });
          child.append({
            type: 'tool/result',
            data: { turn, step: 1, id: 'child_call', output: 'ok', isError: false },
          });
        }
        child.append({ type: 'step/end', data: { turn, step: 1, finish: 'stop' } });
        child.append({ type: 'turn/end', data: { turn, reason: 'completed' } });
        expect(child.header.seedLength).toBe(seed.length === 0 ? undefined : seed.length);
        expect(checkInvariants(child, { finished: true })).toEqual([]);
      } finally {
        await child.close();
      }
    },
  );
});

describe('session JSONL', () => {
  test.prop([sessionLogArbitrary()], runs)('serialize then parse is the identity', (log) => {
    const parsed = parseSessionLog(serializeSessionLog(log), 'generated.jsonl');
    expect(parsed).toEqual({ path: 'generated.jsonl', header: log.header, events: log.events });
  });
});
