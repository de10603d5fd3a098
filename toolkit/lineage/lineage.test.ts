import { describe, expect, test } from 'vitest';
import { withLineage } from './lineage-scope.js';
import { resolveLineage } from './resolve-lineage.js';

describe('lineage attribution', () => {
  test('the x-session-lineage header wins over the scope', () => {
    const headers = new Headers({ 'x-session-lineage': 'main/call_7' });
    expect(withLineage('main/other', () => resolveLineage(headers))).toBe('main/call_7');
  });

  test('without a header, withLineage names the session, also after awaits', async () => {
    const seen = await withLineage('main/c1', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return resolveLineage(new Headers());
    });
    expect(seen).toBe('main/c1');
  });

  test('with neither, the call belongs to main', () => {
    expect(resolveLineage(new Headers())).toBe('main');
  });
});
