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
  /** The same for CPU time per unit, when both were measured with it (`Stats.cpu`). */
  readonly cpuRatio?: number;
  readonly reference?: string;
  /** The goal as the issue states it, e.g. `<= 1.15x floor`. */
  readonly goal?: string;
  readonly met?: boolean;
}

const HEADERS = ['item', 'subject', 'median', 'p10..p90', 'ratio', 'cpu (ratio)', 'goal', 'met?'] as const;

/** One plain-text table, columns padded, numbers right-aligned. A subject that failed shows its reason. */
export function formatTable(rows: readonly Row[]): string {
  const cells = rows.map((row) => [
    row.item,
    row.subject,
    row.stats.failure === undefined ? show(row.stats.median, row.unit) : `failed: ${row.stats.failure}`,
    row.stats.failure === undefined ? `${show(row.stats.p10, row.unit)}..${show(row.stats.p90, row.unit)}` : '',
    row.ratio === undefined || Number.isNaN(row.ratio)
      ? ''
      : `${row.ratio.toFixed(2)}x ${row.reference ?? ''}`.trimEnd(),
    row.stats.cpu === undefined || row.stats.failure !== undefined
      ? ''
      : `${show(row.stats.cpu.median, row.unit)}${row.cpuRatio === undefined || Number.isNaN(row.cpuRatio) ? '' : ` (${row.cpuRatio.toFixed(2)}x)`}`,
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
export function ratioRow(base: Omit<Row, 'ratio' | 'cpuRatio' | 'met'>, reference: Stats, limit?: number): Row {
  const ratio = base.stats.median / reference.median;
  const cpu = base.stats.cpu && reference.cpu ? { cpuRatio: base.stats.cpu.median / reference.cpu.median } : {};
  // A failed subject (NaN) misses its goal; so does every subject measured against a failed reference.
  return { ...base, ratio, ...cpu, ...(limit === undefined ? {} : { met: ratio <= limit }) };
}
