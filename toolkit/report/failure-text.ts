import type { ReportDivergence } from './types.js';

const VALUE_LINE = /^\s+(recorded|live):\s+(.*)$/;

/**
 * A failure's message as its box shows it beside the inline diff: without the lines that state the
 * divergence's recorded and live values, and without its path, which the diff shows already. A
 * line that states another value (the message's own wording) is kept.
 */
export function messageBesideDiff(message: string, divergence: ReportDivergence): string {
  const where = ` at ${divergence.path}:`;
  return message
    .split('\n')
    .filter((line) => {
      const found = VALUE_LINE.exec(line);
      if (found === null) return true;
      const shown = found[1] === 'recorded' ? divergence.recorded : divergence.live;
      return !sameValue(found[2] as string, shown);
    })
    .map((line) => (line.endsWith(where) ? `${line.slice(0, -where.length)}, at the first divergence above.` : line))
    .join('\n');
}

/** The message's value and the diff's are one value, either of them possibly cut (`…`) where it grew long. */
function sameValue(inMessage: string, inDiff: string): boolean {
  const a = inMessage.replace(/…$/, '');
  const b = inDiff.replace(/…$/, '');
  return a === b || (inMessage.endsWith('…') && b.startsWith(a)) || (inDiff.endsWith('…') && a.startsWith(b));
}
