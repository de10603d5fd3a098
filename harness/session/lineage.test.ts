import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors.js';
import { childLineage, lineageProblem, ordinalSpawnedBy } from './lineage.js';

describe('lineage', () => {
  it('a child lineage is the parent lineage and the spawning tool-call id joined by a slash', () => {
    expect(childLineage('main', 'call_7')).toBe('main/call_7');
    expect(childLineage('main/call_7', 'c2')).toBe('main/call_7/c2');
  });

  it('children started without a tool call are named c<N>, counting from 1', () => {
    expect(ordinalSpawnedBy(1)).toBe('c1');
    expect(ordinalSpawnedBy(12)).toBe('c12');
    expect(() => ordinalSpawnedBy(0)).toThrow(HarnessError);
    expect(() => ordinalSpawnedBy(1.5)).toThrow(/1-based/);
  });

  it('refuses a spawnedBy that is empty or contains a slash, since it would break the lineage tree', () => {
    expect(() => childLineage('main', '')).toThrow(/non-empty and contain no '\/'/);
    expect(() => childLineage('main', 'a/b')).toThrow(HarnessError);
  });

  it('refuses a parent lineage with an empty segment', () => {
    expect(() => childLineage('main/', 'call_1')).toThrow(/empty segment/);
    expect(() => childLineage('', 'call_1')).toThrow(/empty segment/);
  });

  it('reports what is wrong with a lineage, or null when it is valid', () => {
    expect(lineageProblem('main')).toBeNull();
    expect(lineageProblem('review/call_1/c3')).toBeNull();
    expect(lineageProblem('main//x')).toMatch(/segment \(#2\)/);
    expect(lineageProblem(3)).toMatch(/must be a string/);
  });
});
