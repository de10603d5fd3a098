import { statSync } from 'node:fs';
import { checkInvariants, SessionStore, type LoadedSessionLog, type Violation } from '../../harness/session/index.js';
import { firstLinkInside } from '../recording-folder/refuse-links.js';
import { HarvestError } from './harvest-error.js';
import { orderByLineage } from './lineage-order.js';

/** One session log found under a run's sessions root. */
export interface HarvestedSession extends LoadedSessionLog {
  /** Every rule the log breaks, checked as a finished log; any violation fails the scenario. */
  readonly violations: readonly Violation[];
}

/**
 * Every `*.jsonl` session log under `root`, at any depth (ACP children write there too), in
 * lineage order (see `orderByLineage`). A crash-cut last line is dropped and reported in
 * `recovered`; the log is then checked like any other. Sessions that share a lineage (a child
 * spawned again under the same key) are ordered by `createdAt`, then by file path.
 * A damaged file throws the store's `SESSION_CORRUPT`; a missing root throws `SESSIONS_ROOT_NOT_FOUND`.
 */
export async function harvestSessions(root: string): Promise<HarvestedSession[]> {
  const store = new SessionStore({ root });
  await assertDirectory(store.root);
  refuseLinksInside(store.root);
  const loaded = await Promise.all((await store.list()).map((path) => store.load(path)));
  const harvested = loaded.map((log) => ({ ...log, violations: checkInvariants(log, { finished: true }) }));
  harvested.sort((a, b) => a.header.createdAt - b.header.createdAt || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return orderByLineage(harvested);
}

/**
 * As a recording is (see `refuseLinks`): a link in the sessions root (scenario code can write
 * there) would make a file outside the run a session log, and its content a transcript.
 */
function refuseLinksInside(root: string): void {
  const link = firstLinkInside(root);
  if (link === undefined) return;
  throw new HarvestError(
    'SESSION_LOG_LINK',
    `${link.path} is a symbolic link (to ${link.to}) in the sessions root ${root}: nestcast never reads a session log through a link, since it leads outside the run. Something the scenario ran made it; session logs are written by the harness only, so remove what creates the link.`,
  );
}

async function assertDirectory(root: string): Promise<void> {
  try {
    if (statSync(root).isDirectory()) return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new HarvestError(
      'SESSIONS_ROOT_NOT_FOUND',
      `No sessions root at ${root}: the run wrote no session logs there. Pass the root the run's SessionStore (and its ACP children) used.`,
      { cause: error },
    );
  }
  throw new HarvestError(
    'SESSIONS_ROOT_NOT_FOUND',
    `The sessions root ${root} is a file, not a directory. Pass the folder the run's SessionStore used.`,
  );
}
