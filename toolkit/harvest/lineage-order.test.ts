import { describe, expect, it } from 'vitest';
import { buildLog } from '../../harness/session/log-builder.js';
import type { SessionLog } from '../../harness/session/index.js';
import { orderByLineage } from './lineage-order.js';
import { childLog, parentLog } from './testing/nested-logs.js';

const lineages = (sessions: readonly SessionLog[]): string[] => sessions.map((session) => session.header.lineage);

describe('orderByLineage', () => {
  it('puts main first, then each child depth-first in the order the parent called the tools that spawned them', () => {
    const sessions = [
      childLog('main/call_a', { createdAt: 1 }),
      childLog('main/call_b/c1'),
      childLog('main/call_b', { createdAt: 9 }),
      parentLog(),
    ];
    expect(lineages(orderByLineage(sessions))).toEqual(['main', 'main/call_b', 'main/call_b/c1', 'main/call_a']);
  });

  it('orders c<N> children by N after tool-call children, and other keys by lineage string last', () => {
    const sessions = [
      childLog('main/zeta'),
      childLog('main/c10'),
      childLog('main/alpha'),
      childLog('main/c2'),
      childLog('main/call_a'),
      parentLog(),
    ];
    expect(lineages(orderByLineage(sessions))).toEqual([
      'main',
      'main/call_a',
      'main/c2',
      'main/c10',
      'main/alpha',
      'main/zeta',
    ]);
  });

  it('a child of a later turn comes after a child of an earlier turn even though its call id sorts first', () => {
    const parent = buildLog()
      .turn((t) => t.step((s) => s.call('z_first', 'subagent').result('z_first', 'ok')))
      .turn((t) => t.step((s) => s.call('a_second', 'subagent').result('a_second', 'ok')))
      .build();
    const sessions = [childLog('main/a_second'), childLog('main/z_first'), parent];
    expect(lineages(orderByLineage(sessions))).toEqual(['main', 'main/z_first', 'main/a_second']);
  });

  it('sessions without their parent are roots, after main, by lineage string', () => {
    const sessions = [childLog('orphan/c1'), childLog('main/gone/c1'), parentLog()];
    expect(lineages(orderByLineage(sessions))).toEqual(['main', 'main/gone/c1', 'orphan/c1']);
  });

  it('sessions sharing a lineage keep their input order, and their children follow them all', () => {
    const first = childLog('main/call_a', { id: 'first' });
    const second = childLog('main/call_a', { id: 'second' });
    const ordered = orderByLineage([childLog('main/call_a/c1'), first, parentLog(), second]);
    expect(ordered.map((session) => session.header.id)).toEqual(['parent-id', 'first', 'second', 'c1-id']);
  });
});
