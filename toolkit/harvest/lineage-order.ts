import type { SessionLog } from '../../harness/session/index.js';

/** Sort key of a child among its siblings: tool-call spawned first, then `c<N>`, then the rest. */
type SpawnRank = readonly [tier: number, major: number, minor: number];

const ORDINAL_SPAWN = /^c([1-9]\d*)$/;

/**
 * `sessions` in lineage-tree order: root lineages first (`main` before any other, the rest by
 * lineage string), each followed depth-first by its children in spawn order. Spawn order is
 * read from the parent's log, never from clocks: a child spawned by a tool call sorts by the
 * position of that `tool/call` in the parent's events; `c<N>` children follow by N; anything
 * else by lineage string. Sessions sharing a lineage keep their input order (the sort is stable).
 */
export function orderByLineage<T extends SessionLog>(sessions: readonly T[]): T[] {
  const groups = new Map<string, T[]>();
  for (const session of sessions) {
    const group = groups.get(session.header.lineage);
    if (group === undefined) groups.set(session.header.lineage, [session]);
    else group.push(session);
  }
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  for (const lineage of groups.keys()) {
    const parent = parentLineage(lineage);
    if (parent === null || !groups.has(parent)) roots.push(lineage);
    else children.set(parent, [...(children.get(parent) ?? []), lineage]);
  }
  const ordered: T[] = [];
  const visit = (lineage: string): void => {
    const group = groups.get(lineage) ?? [];
    ordered.push(...group);
    const rankOf = spawnRanker(group);
    const ranked = (children.get(lineage) ?? []).map((child) => ({ child, rank: rankOf(lastSegment(child)) }));
    ranked.sort((a, b) => compareRanks(a.rank, b.rank) || compareStrings(a.child, b.child));
    for (const { child } of ranked) visit(child);
  };
  for (const root of roots.sort(compareRoots)) visit(root);
  return ordered;
}

function spawnRanker(parents: readonly SessionLog[]): (spawnedBy: string) => SpawnRank {
  const callPositions = new Map<string, SpawnRank>();
  parents.forEach((parent, sessionIndex) => {
    parent.events.forEach((event, position) => {
      if (event.type === 'tool/call' && !callPositions.has(event.data.id))
        callPositions.set(event.data.id, [0, sessionIndex, position]);
    });
  });
  return (spawnedBy) => {
    const called = callPositions.get(spawnedBy);
    if (called !== undefined) return called;
    const ordinal = ORDINAL_SPAWN.exec(spawnedBy);
    return ordinal === null ? [2, 0, 0] : [1, Number(ordinal[1]), 0];
  };
}

function compareRanks(a: SpawnRank, b: SpawnRank): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

function compareRoots(a: string, b: string): number {
  if (a === 'main' || b === 'main') return a === 'main' ? (b === 'main' ? 0 : -1) : 1;
  return compareStrings(a, b);
}

/** Code-unit order, so the result never depends on the machine's locale. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function parentLineage(lineage: string): string | null {
  const slash = lineage.lastIndexOf('/');
  return slash === -1 ? null : lineage.slice(0, slash);
}

function lastSegment(lineage: string): string {
  return lineage.slice(lineage.lastIndexOf('/') + 1);
}
