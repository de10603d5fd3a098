/**
 * `npm run bench [-- <item>...]`: runs the benchmarks of issue 8 (all, or the items named by
 * number) and prints one table of medians and ratios. Progress goes to stderr, the table to stdout.
 */
import { availableParallelism } from 'node:os';
import { benchReplayCost } from './replay-cost.js';
import { formatTable, type Row } from './table.js';

const ITEMS: ReadonlyArray<readonly [string, string, () => Promise<Row[]>]> = [
  ['1', 'replay cost per model call', benchReplayCost],
];

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const rows: Row[] = [];
  const began = performance.now();
  for (const [id, title, bench] of ITEMS) {
    if (wanted.length > 0 && !wanted.includes(id)) continue;
    process.stderr.write(`[bench] ${id}: ${title}...\n`);
    const started = performance.now();
    rows.push(...(await bench()));
    process.stderr.write(`[bench] ${id}: done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
  process.stdout.write(`nestcast bench: node ${process.version}, ${availableParallelism()} cores, ${((performance.now() - began) / 1000).toFixed(0)} s\n\n`);
  process.stdout.write(`${formatTable(rows)}\n`);
  const missed = rows.filter((row) => row.met === false);
  process.stdout.write(missed.length === 0 ? '\nevery goal met\n' : `\ngoals missed: ${missed.map((row) => `${row.item} ${row.subject}`).join('; ')}\n`);
}

await main();
