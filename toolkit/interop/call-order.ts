import type { Cassette, CassetteCall } from '../cassette/types.js';
import { protocolById } from '../protocols/registry.js';

/** A call of a cassette with where it belongs. */
export interface OrderedCall {
  readonly lineage: string;
  /** 1-based position in its session. */
  readonly call: number;
  readonly value: CassetteCall;
}

/**
 * Every call of a cassette in an order it could have happened in: a cassette keeps calls per
 * session, and a flat fixture needs one sequence. A child's calls follow the parent call whose
 * reply started it and precede the parent's next call (which carries the child's result); children
 * no tool call started follow their parent's last call; further roots (and sessions whose parent made no call here) follow `main`.
 */
export function callOrder(cassette: Cassette): OrderedCall[] {
  const lineages = Object.keys(cassette.calls);
  const childrenOf = (parent: string): string[] =>
    lineages.filter((lineage) => lineage.startsWith(`${parent}/`) && !lineage.slice(parent.length + 1).includes('/'));
  const ordered: OrderedCall[] = [];
  const visit = (lineage: string): void => {
    const children = childrenOf(lineage);
    const placed = new Set<string>();
    (cassette.calls[lineage] ?? []).forEach((value, index) => {
      ordered.push({ lineage, call: index + 1, value });
      for (const { id } of protocolById(value.protocol)?.reply(value.response)?.message.toolCalls ?? []) {
        const child = `${lineage}/${id}`;
        if (children.includes(child) && !placed.has(child)) {
          placed.add(child);
          visit(child);
        }
      }
    });
    for (const child of children) if (!placed.has(child)) visit(child);
  };
  // A root is any session whose parent has no calls of its own here (a cassette may hold only a child).
  const parentOf = (lineage: string): string => lineage.slice(0, Math.max(0, lineage.lastIndexOf('/')));
  const roots = lineages
    .filter((lineage) => !lineages.includes(parentOf(lineage)))
    .sort((a, b) => (a === 'main' ? -1 : b === 'main' ? 1 : a.localeCompare(b)));
  for (const root of roots) visit(root);
  return ordered;
}
