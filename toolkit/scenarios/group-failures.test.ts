import { describe, expect, it } from 'vitest';
import { failureGroups, groupByCause } from './group-failures.js';
import type { ScenarioFailure } from './scenario-failure.js';

const mismatch = (lineage: string, call = 1): ScenarioFailure => ({
  code: 'REQUEST_MISMATCH',
  message: `s: call ${call} of ${lineage} differs`,
  failedCall: { lineage, call },
});
const failure = (code: ScenarioFailure['code'], sessions?: string[]): ScenarioFailure => ({
  code,
  message: `s: ${code}`,
  ...(sessions === undefined ? {} : { sessions }),
});

/** Each group as `HEADLINE: CONSEQUENCE, …`. */
function shape(failures: readonly ScenarioFailure[]): string[] {
  return failureGroups(groupByCause(failures)).map(
    ({ headline, consequences }) =>
      `${headline.code}${consequences.length === 0 ? '' : `: ${consequences.map((c) => c.code).join(', ')}`}`,
  );
}

describe('grouping failures by cause', () => {
  it('the first divergence heads the transcripts and expectations it broke, however many', () => {
    expect(
      shape([
        mismatch('main'),
        failure('TRANSCRIPT_MISMATCH'),
        failure('EXPECTATION_FAILED'),
        failure('EXPECTATION_FAILED'),
      ]),
    ).toEqual(['REQUEST_MISMATCH: TRANSCRIPT_MISMATCH, EXPECTATION_FAILED, EXPECTATION_FAILED']);
  });

  it('later failures of the same session, its descendants and its ancestors follow it; a sibling’s is a headline of its own', () => {
    const failures = [
      mismatch('main/a'),
      mismatch('main/b'),
      mismatch('main', 2),
      mismatch('main/a/x'),
      failure('UNCONSUMED_CALLS', ['main/a', 'main/a#2']),
      failure('UNCONSUMED_CALLS', ['main/a', 'main/b']),
    ];
    expect(shape(failures)).toEqual([
      'REQUEST_MISMATCH: REQUEST_MISMATCH, REQUEST_MISMATCH, UNCONSUMED_CALLS',
      'REQUEST_MISMATCH',
      'UNCONSUMED_CALLS',
    ]);
    const [, second, third] = groupByCause(failures);
    expect([second?.failedCall?.lineage, third?.failedCall?.lineage]).toEqual(['main', 'main/a/x']);
  });

  it('a child that never started heads its parent’s mismatch; a failure naming no session heads only the follow-on ones', () => {
    expect(
      shape([failure('CHILD_NOT_STARTED', ['main/c1']), mismatch('main', 2), failure('TRANSCRIPT_MISMATCH')]),
    ).toEqual(['CHILD_NOT_STARTED: REQUEST_MISMATCH, TRANSCRIPT_MISMATCH']);
    expect(shape([failure('NETWORK_ESCAPE'), mismatch('main'), failure('EXPECTATION_FAILED')])).toEqual([
      'NETWORK_ESCAPE: EXPECTATION_FAILED',
      'REQUEST_MISMATCH',
    ]);
  });

  it('a program that threw a refusal of its session follows the refusal; a throw of its own heads', () => {
    // check-program names the session of the refused call the program's error quotes.
    expect(shape([mismatch('main/call_draft'), mismatch('main', 2), failure('PROGRAM_FAILED', ['main'])])).toEqual([
      'REQUEST_MISMATCH: REQUEST_MISMATCH, PROGRAM_FAILED',
    ]);
    expect(shape([mismatch('main/call_draft'), failure('PROGRAM_FAILED')])).toEqual([
      'REQUEST_MISMATCH',
      'PROGRAM_FAILED',
    ]);
    expect(shape([failure('PROGRAM_FAILED'), failure('EXPECTATION_FAILED')])).toEqual([
      'PROGRAM_FAILED: EXPECTATION_FAILED',
    ]);
  });

  it('when the first failure is an expectation, the others are causes of their own and only NOT_SAVED follows it', () => {
    expect(
      shape([
        failure('EXPECTATION_FAILED'),
        failure('EXPECTATION_FAILED'),
        failure('INVARIANT_VIOLATION'),
        failure('NOT_SAVED'),
      ]),
    ).toEqual(['EXPECTATION_FAILED: NOT_SAVED', 'EXPECTATION_FAILED', 'INVARIANT_VIOLATION']);
  });

  it('a consequence keeps the error it was made from, not enumerable, and grouping twice changes nothing', () => {
    const cause = new Error('the transcript error');
    const transcript = failure('TRANSCRIPT_MISMATCH');
    Object.defineProperty(transcript, 'cause', { value: cause, enumerable: false });
    const once = groupByCause([mismatch('main'), transcript]);
    expect(once[1]).toMatchObject({ code: 'TRANSCRIPT_MISMATCH', consequence: true });
    expect(once[1]?.cause).toBe(cause);
    expect(Object.keys(once[1] ?? {})).not.toContain('cause');
    expect(groupByCause(once)).toEqual(once);
    expect(groupByCause([])).toEqual([]);
  });
});
