import type { Stats } from './measure.js';

/** One line of the bench table. */
export interface Row {
  /** Issue item, e.g. `1 replay/openai`. */
  readonly item: string;
  readonly subject: string;
  readonly stats: Stats;
  /** How the median is shown: time per unit, or a rate. */
  readonly unit: 'ms' | 'µs' | '/s' | 'MB';
  /** Median divided by the reference row's median. */
  readonly ratio?: number;
  readonly reference?: string;
  /** The goal as the issue states it, e.g. `<= 1.15x floor`. */
  readonly goal?: string;
  readonly met?: boolean;
}

const HEADERS = ['item', 'subject', 'median', 'p10..p90', 'ratio', 'goal', 'met?'] as const;

/** One plain-text table, columns padded, numbers right-aligned. */
export function formatTable(rows: readonly Row[]): string {
  const cells = rows.map((row) => [
    row.item,
    row.subject,
    show(row.stats.median, row.unit),
    `${show(row.stats.p10, row.unit)}..${show(row.stats.p90, row.unit)}`,
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}x ${row.reference ?? ''}`.trimEnd(),
    row.goal ?? '',
    row.met === undefined ? '' : row.met ? 'yes' : 'NO',
  ]);
  const widths = HEADERS.map((header, i) =>
    Math.max(header.length, ...cells.map((line) => (line[i] as string).length)),
  );
  const right = new Set([2, 3]);
  const line = (values: readonly string[]): string =>
    values
      .map((value, i) => (right.has(i) ? value.padStart(widths[i] as number) : value.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(HEADERS), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

function show(value: number, unit: Row['unit']): string {
  if (!Number.isFinite(value)) return '-';
  switch (unit) {
    case 'µs':
      return `${Math.round(value * 1000).toLocaleString('en-US')} µs`;
    case 'ms':
      return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
    case '/s':
      return `${value.toFixed(value < 100 ? 1 : 0)}/s`;
    case 'MB':
      return `${value.toFixed(1)} MB`;
  }
}

/** A row comparing `stats` with a reference; `limit` is the largest ratio that meets the goal. */
export function ratioRow(base: Omit<Row, 'ratio' | 'met'>, reference: Stats, limit?: number): Row {
  const ratio = base.stats.median / reference.median;
  return { ...base, ratio, ...(limit === undefined ? {} : { met: ratio <= limit }) };
}
