import { showPath, showValues } from '../canonical/show-values.js';
import type { TranscriptDiff } from './compare-transcripts.js';
import { TRANSCRIPTS_DIR } from './transcript-files.js';

/** A multi-line, plain-text account of `diff` for a terminal or a test failure, ending with how to accept it. */
export function formatTranscriptDiff(
  diff: TranscriptDiff,
  scenario: string,
  options: { accept?: string } = {},
): string {
  const file = `${TRANSCRIPTS_DIR}/${diff.file}`;
  const accept = `If the new behaviour is intended, accept it with: ${options.accept ?? `nestcast run ${scenario} --update`}`;
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
      const [expected, actual] = showValues(diff.expected, diff.actual);
      return [
        `Scenario ${scenario}: session ${diff.lineage} differs from its expected transcript`,
        `  at ${file}:${diff.line} (${what}), ${showPath(diff.path)}`,
        `  expected: ${expected}`,
        `  actual:   ${actual}`,
        accept,
      ].join('\n');
    }
  }
}

function listOf(lineages: readonly string[]): string {
  return lineages.length === 0 ? '(none)' : lineages.join(', ');
}
