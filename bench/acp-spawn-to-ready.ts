/**
 * Item 6: spawn-to-ready of `nestcast acp-agent` (built, from dist/) next to a bare ACP echo agent
 * (SDK only): the time from spawn until `session/new` is answered, alternating the two.
 * Goal: at most 1.5x the bare agent. Part of `npm run bench`; alone:
 *
 *   npm run build && npx tsx bench/acp-spawn-to-ready.ts [runs=9]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { stats } from './measure.js';
import { formatTable, ratioRow, type Row } from './table.js';

export const ACP_READY_GOAL = 1.5;
const CLI = resolve('dist/cli.js');
const ECHO_AGENT = fileURLToPath(new URL('../test/fixtures/acp/echo-agent.mjs', import.meta.url));

async function spawnToReady(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const conn = client({ name: 'bench' }).connect(
    ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  await conn.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
  await conn.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  const ready = performance.now() - started;
  child.stdin.end();
  await exited;
  return ready;
}

export async function benchAcpSpawnToReady(runs = 9): Promise<Row[]> {
  if (!existsSync(CLI)) throw new Error(`no built CLI at ${CLI}; run \`npm run build\` first`);
  const sessionsRoot = await mkdtemp(join(tmpdir(), 'nestcast-bench-acp-'));
  const env = { ...process.env, NESTCAST_SESSIONS_ROOT: sessionsRoot, NESTCAST_LINEAGE: 'main/bench' };
  const subjects = { echo: [ECHO_AGENT], nestcast: [CLI, 'acp-agent'] } as const;
  const samples = { echo: [] as number[], nestcast: [] as number[] };
  try {
    // The first spawn of each warms the file cache; not counted.
    for (const args of Object.values(subjects)) await spawnToReady(args, env, sessionsRoot);
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? (['echo', 'nestcast'] as const) : (['nestcast', 'echo'] as const);
      for (const name of order) samples[name].push(await spawnToReady(subjects[name], env, sessionsRoot));
    }
  } finally {
    await rm(sessionsRoot, { recursive: true, force: true });
  }
  const echo = stats(samples.echo);
  const item = '6 acp spawn-to-ready';
  return [
    ratioRow({ item, subject: 'bare ACP echo agent (SDK only)', stats: echo, unit: 'ms', reference: 'echo' }, echo),
    ratioRow(
      {
        item,
        subject: 'nestcast acp-agent (dist)',
        stats: stats(samples.nestcast),
        unit: 'ms',
        reference: 'echo',
        goal: `<= ${ACP_READY_GOAL}x echo`,
      },
      echo,
      ACP_READY_GOAL,
    ),
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${formatTable(await benchAcpSpawnToReady(Number(process.argv[2] ?? 9)))}\n`);
}
