import { describe, expect, it } from 'vitest';
import { childLog } from './testing/nested-logs.js';
import { transcriptFiles } from './transcript-files.js';

describe('transcriptFiles', () => {
  it('maps each lineage to a path of escaped segments, numbering repeats of a lineage', () => {
    const logs = ['main', 'main/call_1', 'main/call_1', 'main/..', 'main/a b~*'].map((lineage) => childLog(lineage));
    expect(transcriptFiles(logs)).toEqual([
      'main.jsonl',
      'main/call_1.jsonl',
      'main/call_1~2.jsonl',
      'main/%2E..jsonl',
      'main/a%20b%7E%2A.jsonl',
    ]);
  });
});
