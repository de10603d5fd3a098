import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const LAYERS = ['harness', 'providers', 'toolkit'];

/** Folder → the folders its source files import from, its own subfolders aside (relative specifiers: static, re-export, dynamic). */
export type FolderGraph = ReadonlyMap<string, ReadonlySet<string>>;

async function folderGraph(): Promise<FolderGraph> {
  const graph = new Map<string, Set<string>>();
  for (const layer of LAYERS) {
    const entries = await readdir(join(root, layer), { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile() || !/\.(ts|mts)$/.test(entry.name) || /\.test\.ts$/.test(entry.name)) continue;
      const file = join(entry.parentPath, entry.name);
      const from = relative(root, dirname(file));
      const edges = graph.get(from) ?? new Set<string>();
      graph.set(from, edges);
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const to = relative(root, dirname(resolve(dirname(file), match[1] as string)));
        // A folder using the folders inside it (an index gathering them, a CLI loading its commands)
        // is containment; the edge back from a part to its folder is the dependency that counts.
        if (to !== from && !to.startsWith(`${from}/`)) edges.add(to);
      }
    }
  }
  return graph;
}

/** One cycle per strongly connected group of folders (Tarjan), each as `a → b → … → a`. */
export function folderCycles(graph: FolderGraph): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = member === node ? undefined : stack.pop()) {
      onStack.delete(member);
      group.push(member);
    }
    if (group.length > 1) cycles.push(cycleThrough(graph, new Set(group), node).join(' → '));
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles.sort();
}

/** A shortest path from `start` back to itself inside one group (breadth first). */
function cycleThrough(graph: FolderGraph, group: ReadonlySet<string>, start: string): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const next of graph.get(at) ?? []) {
      if (!group.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let step: string | undefined = at; step !== start && step !== undefined; step = previous.get(step))
          path.splice(1, 0, step);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, at);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

describe('folder cycles', () => {
  test('no two folders of harness/, providers/ or toolkit/ source import each other, directly or around a loop', async () => {
    expect(folderCycles(await folderGraph())).toEqual([]);
  });

  test('the check names a cycle when there is one', () => {
    const graph: FolderGraph = new Map([
      ['toolkit/cli', new Set(['toolkit/model-server'])],
      ['toolkit/model-server', new Set(['toolkit/lineage', 'toolkit/cli'])],
      ['toolkit/lineage', new Set<string>()],
    ]);
    expect(folderCycles(graph)).toEqual(['toolkit/cli → toolkit/model-server → toolkit/cli']);
  });
});
