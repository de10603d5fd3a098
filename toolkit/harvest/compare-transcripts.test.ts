import { describe, expect, it } from 'vitest';
import { buildLog } from '../../harness/session/log-builder.js';
import { compareTranscripts } from './compare-transcripts.js';
import { formatTranscriptDiff } from './format-transcript-diff.js';
import { normalizeSessions } from './normalize.js';
import { childLog, parentLog } from './testing/nested-logs.js';

const expected = () => normalizeSessions([parentLog(), childLog('main/call_b'), childLog('main/call_a')]);

describe('compareTranscripts', () => {
  it('equal transcripts have no divergence', () => {
    expect(compareTranscripts(expected(), expected())).toBeNull();
  });

  it('one changed word in a child response is reported at its lineage, line, seq, type and path', () => {
    const actual = normalizeSessions([parentLog(), childLog('main/call_b', {}, 'child DONE'), childLog('main/call_a')]);

    const diff = compareTranscripts(expected(), actual);

    expect(diff).toEqual({
      kind: 'session-differs',
      lineage: 'main/call_b',
      file: 'main/call_b.jsonl',
      line: 5,
      event: { seq: 3, type: 'assistant/message' },
      path: 'data.content[0].text',
      expected: 'child done',
      actual: 'child DONE',
    });
    expect(formatTranscriptDiff(diff!, 'multi')).toBe(
      [
        'Scenario multi: session main/call_b differs from its expected transcript',
        '  at transcripts/main/call_b.jsonl:5 (seq 3 assistant/message), data.content[0].text',
        '  expected: "child done"',
        '  actual:   "child DONE"',
        'If the new behaviour is intended, accept it with: nestcast run multi --update',
      ].join('\n'),
    );
  });

  it('a header difference is reported on line 1 with no event', () => {
    const actual = normalizeSessions([
      parentLog({ delegationDepth: 2 }),
      childLog('main/call_b'),
      childLog('main/call_a'),
    ]);

    const diff = compareTranscripts(expected(), actual);

    expect(diff).toMatchObject({
      lineage: 'main',
      line: 1,
      event: null,
      path: 'delegationDepth',
      expected: 0,
      actual: 2,
    });
    expect(formatTranscriptDiff(diff!, 'multi')).toContain('at transcripts/main.jsonl:1 (header), delegationDepth');
  });

  it('a session that stops early shows the first missing line as absent on the actual side', () => {
    const short = buildLog({ id: 'parent-id' }).user('delegate both').build();
    const actual = normalizeSessions([short, childLog('main/call_b'), childLog('main/call_a')]);

    const diff = compareTranscripts(expected(), actual);

    expect(diff).toMatchObject({
      lineage: 'main',
      line: 3,
      event: { seq: 1, type: 'turn/start' },
      path: '(root)',
      actual: undefined,
    });
    expect(formatTranscriptDiff(diff!, 'multi')).toContain(
      '  expected: {"data":{"turn":1},"seq":1,"time":0,"type":"turn/start"}\n  actual:   (absent)',
    );
  });

  it('the parent divergence is reported before any child divergence', () => {
    const actual = normalizeSessions([
      parentLog({ origin: 'subagent' }),
      childLog('main/call_b', {}, 'other'),
      childLog('main/call_a'),
    ]);

    expect(compareTranscripts(expected(), actual)).toMatchObject({ lineage: 'main', path: 'origin' });
  });

  it('an expected session the run did not produce is a missing session, listing what the run produced', () => {
    const actual = normalizeSessions([parentLog(), childLog('main/call_b')]);

    const diff = compareTranscripts(expected(), actual);

    expect(diff).toEqual({
      kind: 'missing-session',
      lineage: 'main/call_a',
      file: 'main/call_a.jsonl',
      actualLineages: ['main', 'main/call_b'],
    });
    expect(formatTranscriptDiff(diff!, 'multi')).toBe(
      [
        'Scenario multi: session main/call_a is expected (transcripts/main/call_a.jsonl) but the run did not produce it.',
        '  sessions produced: main, main/call_b',
        'If the new behaviour is intended, accept it with: nestcast run multi --update',
      ].join('\n'),
    );
  });

  it('a session only the run produced is reported where the run produced it, before the later sessions it shifted', () => {
    const actual = normalizeSessions([
      parentLog(),
      childLog('main/call_b'),
      childLog('main/call_b/c1'),
      childLog('main/call_a'),
    ]);

    const diff = compareTranscripts(expected(), actual);

    expect(diff).toEqual({
      kind: 'extra-session',
      lineage: 'main/call_b/c1',
      file: 'main/call_b/c1.jsonl',
      expectedLineages: ['main', 'main/call_b', 'main/call_a'],
    });
    expect(formatTranscriptDiff(diff!, 'nested')).toBe(
      [
        'Scenario nested: the run produced session main/call_b/c1, which has no expected transcript (transcripts/main/call_b/c1.jsonl).',
        '  sessions expected: main, main/call_b, main/call_a',
        'If the new behaviour is intended, accept it with: nestcast run nested --update',
      ].join('\n'),
    );
  });

  it('long strings are shown as a window around the first differing character', () => {
    const long = (word: string) => `${'a'.repeat(200)} ${word} ${'z'.repeat(200)}`;
    const diff = compareTranscripts(
      normalizeSessions([childLog('main', {}, long('cat'))]),
      normalizeSessions([childLog('main', {}, long('dog'))]),
    );

    const message = formatTranscriptDiff(diff!, 'long');

    expect(message).toContain(`  expected: "…${'a'.repeat(39)} cat ${'z'.repeat(36)}…"`);
    expect(message).toContain(`  actual:   "…${'a'.repeat(39)} dog ${'z'.repeat(36)}…"`);
  });

  it('long non-string values are cut with their full length noted', () => {
    const args = { items: Array.from({ length: 50 }, (_, index) => index) };
    const withArgs = (value: unknown) =>
      normalizeSessions([
        buildLog()
          .turn((t) => t.step((s) => s.call('call_1', 'sum', value).result('call_1', '0')))
          .build(),
      ]);

    const diff = compareTranscripts(withArgs(args), withArgs('not an object'));

    expect(diff).toMatchObject({ path: 'data.args' });
    expect(formatTranscriptDiff(diff!, 'x')).toMatch(
      / {2}expected: \{"items":\[0,1,2,.{80,}… \(\d+ chars\)\n {2}actual: {3}"not an object"/,
    );
  });
});
