/**
 * Spawn-to-ready of `nestcast acp-agent` (built, from dist/) next to a bare ACP echo agent (SDK only):
 * the time from spawn until `session/new` is answered, median of several runs, alternating the two.
 *
 *   npx tsup && npx tsx bench/acp-spawn-to-ready.ts [runs=7] [agent=dist/acp-agent.js]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';

const runs = Number(process.argv[2] ?? 7);
const agentPath = resolve(process.argv[3] ?? 'dist/acp-agent.js');
const echoPath = fileURLToPath(new URL('../test/fixtures/acp/echo-agent.mjs', import.meta.url));

async function spawnToReady(script: string, env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [script], { cwd, env, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const conn = client({ name: 'bench' }).connect(ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  await conn.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
  await conn.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  const ready = performance.now() - started;
  child.stdin.end();
  await exited;
  return ready;
}

function summary(samples: readonly number[]): { median: number; min: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, min: sorted[0] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN };
}

async function main(): Promise<void> {
  if (!existsSync(agentPath)) {
    process.stderr.write(`no built agent at ${agentPath}; run \`npx tsup\` first (tsup.config.ts needs the entry 'acp-agent': 'harness/acp-agent/bin.ts')\n`);
    process.exitCode = 1;
    return;
  }
  const sessionsRoot = await mkdtemp(join(tmpdir(), 'nestcast-bench-acp-'));
  const env = { ...process.env, NESTCAST_SESSIONS_ROOT: sessionsRoot, NESTCAST_LINEAGE: 'main/bench' };
  const nestcast: number[] = [];
  const echo: number[] = [];
  try {
    await spawnToReady(echoPath, env, sessionsRoot); // warms the file cache for both; not counted
    await spawnToReady(agentPath, env, sessionsRoot);
    for (let i = 0; i < runs; i++) {
      echo.push(await spawnToReady(echoPath, env, sessionsRoot));
      nestcast.push(await spawnToReady(agentPath, env, sessionsRoot));
    }
  } finally {
    await rm(sessionsRoot, { recursive: true, force: true });
  }
  const rows = [
    ['bare ACP echo agent (SDK only)', summary(echo)],
    ['nestcast acp-agent (dist)', summary(nestcast)],
  ] as const;
  process.stdout.write(`spawn -> session/new answered, ${runs} runs each (node ${process.version})\n`);
  for (const [name, s] of rows) {
    process.stdout.write(`${name.padEnd(32)} median ${s.median.toFixed(0).padStart(5)} ms   min ${s.min.toFixed(0)}   max ${s.max.toFixed(0)}\n`);
  }
  process.stdout.write(`ratio nestcast/echo (median): ${(rows[1][1].median / rows[0][1].median).toFixed(2)}\n`);
}

await main();
