import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedResponse, startLoopbackServer, wait, write } from '../test/support/loopback-server.js';
import { FRAMES, MESSAGES, MODEL } from './fixtures/stream-50.js';

const REQUEST = JSON.stringify({ model: MODEL, messages: MESSAGES, stream: true });
const N = Number(process.argv[2] ?? 1000);
const think = Number(process.argv[3] ?? 5);
const upstream = await startLoopbackServer(scriptedResponse([wait(think), ...FRAMES.map((f) => write(f))]));
const dir = await mkdtemp(join(tmpdir(), 'rprobe-'));
const child = spawn(process.execPath, [...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.PROF, '--cpu-prof-interval', '50'] : []), 'dist/cli.js', 'serve', '--record', join(dir, 'r'), '--upstream', upstream.url], { stdio: ['ignore', 'pipe', 'inherit'] });
const url: string = await new Promise((res) => { let out = ''; child.stdout.on('data', (c) => { out += c; if (out.includes('GEMINI_API_KEY')) res(out.split('\n')[0]!); }); });
async function ttfb(u: string) {
  const s = performance.now();
  const r = await fetch(`${u}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: REQUEST });
  const reader = r.body!.getReader();
  await reader.read();
  const t = performance.now() - s;
  while (!(await reader.read()).done);
  return t;
}
const direct: number[] = [], through: number[] = [];
for (let i = 0; i < N; i++) { const a = await ttfb(upstream.url); const b = await ttfb(url); if (i >= 20) { direct.push(a); through.push(b); } }
const med = (x: number[]) => x.sort((a, b) => a - b)[x.length >> 1]!;
const added = direct.map((d, i) => through[i]! - d);
console.log('direct', med([...direct]).toFixed(2), 'through', med([...through]).toFixed(2), 'added', med(added).toFixed(2));
child.kill('SIGTERM');
await new Promise((r) => child.once('close', r));
await upstream.close();
