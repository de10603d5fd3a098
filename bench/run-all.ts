/**
 * `npm run bench [-- <item>...]`: runs the benchmarks of issue 8 (all, or the items named by
 * number) and prints one table of medians and ratios. Progress goes to stderr, the table to stdout.
 */
import { availableParallelism } from 'node:os';
import { benchAcpProtocolReplay } from './acp-protocol-replay.js';
import { benchAcpSpawnToReady } from './acp-spawn-to-ready.js';
import { benchFuzzThroughput } from './fuzz-throughput.js';
import { benchGrowingSession } from './growing-session.js';
import { benchLargeCassette } from './large-cassette.js';
import { benchManyScenarios } from './many-scenarios.js';
import { benchParseCost } from './parse-cost.js';
import { benchRecordingOverhead } from './recording-overhead.js';
import { benchReplayCost } from './replay-cost.js';
import { benchScenarioReplay } from './scenario-replay.js';
import { benchServeOverhead } from './serve-overhead.js';
import { formatTable, type Row } from './table.js';
import { benchThreadedTree } from './threaded-tree.js';

const ITEMS: ReadonlyArray<readonly [string, string, () => Promise<Row[]>]> = [
  ['1', 'replay cost per model call', benchReplayCost],
  ['2', 'adapter parse cost against the openai SDK', benchParseCost],
  ['3', 'recording overhead against a paced live server', benchRecordingOverhead],
  ['4', 'scenario replay end to end', benchScenarioReplay],
  ['5', 'fuzzer throughput', benchFuzzThroughput],
  ['6', 'acp-agent spawn-to-ready (dist/, run `npm run build` first)', () => benchAcpSpawnToReady()],
  ['7', 'a 10,000-call cassette: load, memory, replay', benchLargeCassette],
  ['8', 'ACP child replay: protocol cassette vs in-process vs spawned', benchAcpProtocolReplay],
  ['9', 'a 3-level, 12-session framework tree replayed end to end, per call', benchThreadedTree],
  ['10', '1,000 scenarios: --workers 1 against --workers 2 (dist/)', () => benchManyScenarios()],
  [
    '11',
    'growing-history sessions up to 100,000 calls: record, save, load, replay, memory',
    () => benchGrowingSession(),
  ],
  ['12', 'nestcast serve: replay against a plain loopback server, record mode time to first byte', benchServeOverhead],
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
  process.stdout.write(
    `nestcast bench: node ${process.version}, ${availableParallelism()} cores, ${((performance.now() - began) / 1000).toFixed(0)} s\n\n`,
  );
  process.stdout.write(`${formatTable(rows)}\n`);
  const missed = rows.filter((row) => row.met === false);
  process.stdout.write(
    missed.length === 0
      ? '\nevery goal met\n'
      : `\ngoals missed: ${missed.map((row) => `${row.item} ${row.subject}`).join('; ')}\n`,
  );
}

await main();
