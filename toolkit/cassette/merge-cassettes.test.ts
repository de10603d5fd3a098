import { describe, expect, test } from 'vitest';
import { mergeCassettes } from './merge-cassettes.js';
import { sampleCassette } from './testing/sample-cassette.js';

describe('merging recordings', () => {
  test("a child process's sessions join the parent's recording", () => {
    const parent = sampleCassette();
    const child = { ...sampleCassette(), calls: { 'main/call_2': parent.calls['main'] ?? [] } };
    const merged = mergeCassettes(parent, child);
    expect(Object.keys(merged.calls).sort()).toEqual(['main', 'main/call_1', 'main/call_2']);
    expect(merged.provenance).toBe(parent.provenance);
  });

  test('a session recorded by two processes is refused', () => {
    const parent = sampleCassette();
    expect(() => mergeCassettes(parent, { ...parent, location: '/tmp/child' })).toThrow(
      expect.objectContaining({
        code: 'CASSETTE_INVALID',
        message:
          'Cannot merge recordings: session "main" was recorded twice (again in /tmp/child). Each session must be recorded by exactly one process.',
      }),
    );
  });
});
