import type { Cassette } from '../../toolkit/cassette/types.js';

/**
 * Lineages a caller named (a path prefix or header on the endpoint) whose parent session holds no
 * recorded call, like claude-agent-acp's child: content cannot know the name, only that the calls
 * form one session of their own.
 */
export function namedWithoutParent(cassette: Pick<Cassette, 'calls'>): string[] {
  return Object.keys(cassette.calls).filter((lineage) => {
    const slash = lineage.lastIndexOf('/');
    return slash !== -1 && !(lineage.slice(0, slash) in cassette.calls);
  });
}
