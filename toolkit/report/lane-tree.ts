import type { SessionLog } from '../../harness/session/types.js';

/** Where one session sits among the others: its parent lane and the tool call that started it. */
export interface LanePlace {
  /** Index of the parent session in the input; `null` for a root. */
  readonly parent: number | null;
  readonly spawnedBy: string | null;
  readonly depth: number;
  readonly outOfProcess: boolean;
}

/**
 * Parents by session id where the log names one (in-process children), else by lineage
 * (`<parent lineage>/<spawnedBy>`): an ACP child is a top-level session in its own process,
 * so its header has no `parentSession`, only the lineage its parent gave it. That is what
 * marks it as out of process. Expects parents before children (harvest order).
 */
export function laneTree(sessions: readonly SessionLog[]): LanePlace[] {
  const byId = new Map(sessions.map((session, index) => [session.header.id, index]));
  const byLineage = new Map<string, number>();
  const places: LanePlace[] = [];
  sessions.forEach((session, index) => {
    const { header } = session;
    const slash = header.lineage.lastIndexOf('/');
    const parentLineage = slash === -1 ? null : header.lineage.slice(0, slash);
    const named = header.parentSession === undefined ? undefined : byId.get(header.parentSession);
    const parent = named ?? (parentLineage === null ? undefined : byLineage.get(parentLineage));
    const spawnedBy = header.spawnedBy ?? (slash === -1 ? null : header.lineage.slice(slash + 1));
    places.push({
      parent: parent ?? null,
      spawnedBy: parent === undefined ? null : spawnedBy,
      depth: parent === undefined ? 0 : (places[parent]?.depth ?? 0) + 1,
      outOfProcess: parent !== undefined && header.parentSession === undefined,
    });
    if (!byLineage.has(header.lineage)) byLineage.set(header.lineage, index);
  });
  return places;
}
