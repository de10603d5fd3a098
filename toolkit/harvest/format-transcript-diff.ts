import type { Json } from '../canonical/index.js';
import type { TranscriptDiff } from './compare-transcripts.js';
import { TRANSCRIPTS_DIR } from './transcript-files.js';

const MAX_VALUE = 120;
const CONTEXT = 40;

/** A multi-line, plain-text account of `diff` for a terminal or a test failure, ending with how to accept it. */
export function formatTranscriptDiff(diff: TranscriptDiff, scenario: string): string {
  const file = `${TRANSCRIPTS_DIR}/${diff.file}`;
  const accept = `If the new behaviour is intended, accept it with: nestcast run ${scenario} --update`;
  switch (diff.kind) {
    case 'missing-session':
      return [
        `Scenario ${scenario}: session ${diff.lineage} is expected (${file}) but the run did not produce it.`,
        `  sessions produced: ${listOf(diff.actualLineages)}`,
        accept,
      ].join('\n');
    case 'extra-session':
      return [
        `Scenario ${scenario}: the run produced session ${diff.lineage}, which has no expected transcript (${file}).`,
        `  sessions expected: ${listOf(diff.expectedLineages)}`,
        accept,
      ].join('\n');
    case 'session-differs': {
      const what = diff.event === null ? 'header' : `seq ${diff.event.seq} ${diff.event.type}`;
      const [expected, actual] = shownValues(diff.expected, diff.actual);
      return [
        `Scenario ${scenario}: session ${diff.lineage} differs from its expected transcript`,
        `  at ${file}:${diff.line} (${what}), ${diff.path}`,
        `  expected: ${expected}`,
        `  actual:   ${actual}`,
        accept,
      ].join('\n');
    }
  }
}

/** Both sides as short text; two strings, one of them long, are cut to a window around where they first differ. */
function shownValues(expected: Json | undefined, actual: Json | undefined): [string, string] {
  const long = (value: Json | undefined): boolean => typeof value === 'string' && value.length > MAX_VALUE;
  if (typeof expected === 'string' && typeof actual === 'string' && (long(expected) || long(actual))) {
    let at = 0;
    while (at < expected.length && expected[at] === actual[at]) at++;
    return [excerpt(expected, at), excerpt(actual, at)];
  }
  return [shown(expected), shown(actual)];
}

function excerpt(text: string, at: number): string {
  const start = Math.max(0, at - CONTEXT);
  const end = Math.min(text.length, at + CONTEXT);
  const body = JSON.stringify(text.slice(start, end)).slice(1, -1);
  return `"${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}"`;
}

function shown(value: Json | undefined): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length <= MAX_VALUE ? text : `${text.slice(0, MAX_VALUE)}… (${text.length} chars)`;
}

function listOf(lineages: readonly string[]): string {
  return lineages.length === 0 ? '(none)' : lineages.join(', ');
}
