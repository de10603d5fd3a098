import type { Json } from '../canonical/canonical-json.js';
import { jsonEqual } from '../canonical/json-equal.js';
import type { CassetteCall } from '../cassette/types.js';
import { DEFAULT_LINEAGE } from '../lineage/resolve-lineage.js';
import type { Placement } from '../threading/types.js';

/**
 * Binds a live session the threader saw start to a recorded one, by content: among the recorded
 * sessions hanging from the same tool call (or the recorded roots), the first not yet bound whose
 * first request equals the live one, else the first not yet bound. Derived names are labels;
 * this is what makes concurrent roots and repeated children find their own recordings whatever
 * order they start in.
 */
export class SessionBinding {
  readonly #groups = new Map<string, string[]>();
  readonly #bound = new Set<string>();
  readonly #calls: Readonly<Record<string, readonly CassetteCall[]>>;

  #indexed = 0;

  constructor(calls: Readonly<Record<string, readonly CassetteCall[]>>) {
    this.#calls = calls;
  }

  /** Sessions may be added while serving (the model server's `add`): index again when the set grew. */
  #index(): void {
    const lineages = Object.keys(this.#calls);
    if (lineages.length === this.#indexed) return;
    this.#indexed = lineages.length;
    this.#groups.clear();
    for (const lineage of lineages) {
      const key = linkKey(lineage);
      const group = this.#groups.get(key) ?? [];
      group.push(lineage);
      this.#groups.set(key, group);
    }
    for (const group of this.#groups.values()) group.sort((a, b) => siblingOrder(a) - siblingOrder(b) || (a < b ? -1 : a > b ? 1 : 0));
  }

  /** A lineage used by name (a header, a scope, a continued session) is taken. */
  claim(lineage: string): void {
    this.#bound.add(lineage);
  }

  /** The recorded lineage a starting session binds to; the threader's name when none is left (UNRECORDED_SESSION follows). */
  bind(placement: Extract<Placement, { kind: 'start' }>, live: Json): string {
    this.#index();
    const key = placement.parent ? `${placement.parent.lineage}\u0000${placement.parent.id}` : ROOT;
    const free = (this.#groups.get(key) ?? []).filter((lineage) => !this.#bound.has(lineage));
    const equal = free.find((lineage) => {
      const first = this.#calls[lineage]?.[0]?.request;
      return first === null || (first !== undefined && jsonEqual(first, live));
    });
    const chosen = equal ?? free[0] ?? placement.lineage;
    this.#bound.add(chosen);
    return chosen;
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
  const root = new RegExp(`^${DEFAULT_LINEAGE}-(\\d+)$`).exec(lineage);
  if (root) return Number(root[1]);
  return lineage.includes('/') ? 1 : Number.MAX_SAFE_INTEGER;
}
