import type { Json } from '../canonical/canonical-json.js';
import { requestEqual } from '../cassette/request-equal.js';
import type { CassetteCall } from '../cassette/types.js';
import { DEFAULT_LINEAGE } from '../../harness/session/lineage.js';
import type { Placement } from '../threading/types.js';

interface Group {
  readonly lineages: string[];
  /** Every lineage before this index is bound: the common case (sessions start in recorded order) costs O(1). */
  firstFree: number;
}

/**
 * Binds a live session the threader saw start to a recorded one, by content: among the recorded
 * sessions hanging from the same tool call (or the recorded roots), the first not yet bound whose
 * first request equals the live one, else the first not yet bound. Derived names are labels;
 * this is what makes concurrent roots and repeated children find their own recordings whatever
 * order they start in.
 */
export class SessionBinding {
  readonly #groups = new Map<string, Group>();
  readonly #bound = new Set<string>();
  readonly #calls: Readonly<Record<string, readonly CassetteCall[]>>;
  #indexed = 0;

  constructor(calls: Readonly<Record<string, readonly CassetteCall[]>>) {
    this.#calls = calls;
    this.#index();
  }

  /** A lineage used by name (a header, a scope, a continued session) is taken. */
  claim(lineage: string): void {
    this.#bound.add(lineage);
  }

  /**
   * The recorded lineage a starting session binds to (the threader's name when none is left:
   * UNRECORDED_SESSION follows), and whether its first request was found equal to `live`.
   */
  bind(placement: Extract<Placement, { kind: 'start' }>, live: Json): { lineage: string; equal: boolean } {
    const key = placement.parent ? `${placement.parent.lineage}\u0000${placement.parent.id}` : ROOT;
    // Sessions may be added while serving (the model server's `add`): index again only on a miss.
    const chosen = this.#choose(key, live) ??
      (this.#index() ? this.#choose(key, live) : undefined) ?? { lineage: placement.lineage, equal: false };
    this.#bound.add(chosen.lineage);
    return chosen;
  }

  #choose(key: string, live: Json): { lineage: string; equal: boolean } | undefined {
    const group = this.#groups.get(key);
    if (!group) return undefined;
    while (group.firstFree < group.lineages.length && this.#bound.has(group.lineages[group.firstFree] as string))
      group.firstFree++;
    let first: string | undefined;
    for (let i = group.firstFree; i < group.lineages.length; i++) {
      const lineage = group.lineages[i] as string;
      if (this.#bound.has(lineage)) continue;
      first ??= lineage;
      const request = this.#calls[lineage]?.[0]?.request;
      if (request === null || (request !== undefined && requestEqual(request, live))) return { lineage, equal: true };
    }
    return first === undefined ? undefined : { lineage: first, equal: false };
  }

  /** True when the cassette had sessions not indexed yet. */
  #index(): boolean {
    const lineages = Object.keys(this.#calls);
    if (lineages.length === this.#indexed) return false;
    this.#indexed = lineages.length;
    const byKey = new Map<string, string[]>();
    for (const lineage of lineages) {
      const key = linkKey(lineage);
      const list = byKey.get(key) ?? [];
      list.push(lineage);
      byKey.set(key, list);
    }
    this.#groups.clear();
    for (const [key, list] of byKey) {
      list.sort((a, b) => siblingOrder(a) - siblingOrder(b) || (a < b ? -1 : a > b ? 1 : 0));
      this.#groups.set(key, { lineages: list, firstFree: 0 });
    }
    return true;
  }
}

const ROOT = '\u0000root';

/** `main/call_1#2` hangs from tool call `call_1` of `main`; a name without `/` is a root. */
function linkKey(lineage: string): string {
  const slash = lineage.lastIndexOf('/');
  if (slash === -1) return ROOT;
  return `${lineage.slice(0, slash)}\u0000${lineage.slice(slash + 1).replace(/#\d+$/, '')}`;
}

/** Recording order among siblings: `x` before `x#2`; `main` before `main-2`; other names after. */
function siblingOrder(lineage: string): number {
  const child = /#(\d+)$/.exec(lineage);
  if (child) return Number(child[1]);
  if (lineage === DEFAULT_LINEAGE) return 1;
  const root = ROOT_NAME.exec(lineage);
  if (root) return Number(root[1]);
  return lineage.includes('/') ? 1 : Number.MAX_SAFE_INTEGER;
}

const ROOT_NAME = new RegExp(`^${DEFAULT_LINEAGE}-(\\d+)$`);
