import type { ServeSummary } from './start-model-server.js';

/** What `nestcast serve` prints when it stops: each session's calls, then every problem with its code. */
export function summaryText(summary: ServeSummary): string {
  const lines = [`nestcast serve (${summary.mode} mode) stopped.`];
  if (summary.sessions.length === 0) lines.push('  no session made a call');
  const width = Math.max(0, ...summary.sessions.map((session) => session.lineage.length));
  for (const session of summary.sessions) {
    const calls =
      summary.mode === 'record'
        ? `${session.consumed} call${session.consumed === 1 ? '' : 's'} recorded`
        : `${session.consumed}/${session.total} calls served`;
    lines.push(`  ${session.lineage.padEnd(width)}  ${calls}`);
  }
  if (summary.saved !== undefined) {
    const { written, unchanged, removed } = summary.saved;
    lines.push(
      `  saved: ${written.length} file${written.length === 1 ? '' : 's'} written, ${unchanged.length} unchanged, ${removed.length} removed`,
    );
  }
  for (const problem of summary.problems) lines.push(`  ${problem.code}: ${problem.message.replace(/\n/g, '\n    ')}`);
  return `${lines.join('\n')}\n`;
}
