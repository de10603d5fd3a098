import { describe, expect, it } from 'vitest';
import { childLog } from './testing/nested-logs.js';
import { transcriptFiles } from './transcript-files.js';

describe('transcriptFiles', () => {
  it('maps each lineage to a path of escaped segments, numbering repeats of a lineage', () => {
    const logs = ['main', 'main/call_1', 'main/call_1', 'main/.x', 'main/a b~*'].map((lineage) => childLog(lineage));
    expect(transcriptFiles(logs)).toEqual([
      'main.jsonl',
      'main/call_1.jsonl',
      'main/call_1~2.jsonl',
      'main/%2Ex.jsonl',
      'main/a%20b%7E%2A.jsonl',
    ]);
  });

  it.each(['main/..', 'main/.', 'main//c1', '__proto__', 'main/constructor', 'main/c\u001b[2J'])(
    'refuses the session name %j with LINEAGE_INVALID instead of naming a file by it',
    (lineage) => {
      expect(() => transcriptFiles([childLog(lineage)])).toThrow(expect.objectContaining({ code: 'LINEAGE_INVALID' }));
    },
  );
});
