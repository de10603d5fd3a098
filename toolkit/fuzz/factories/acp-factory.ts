import { readdirSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAcpProvider } from '../../../providers/acp/acp-provider.js';
import type { FixtureContext, LiveThing, ProviderFactory } from '../types.js';
import { isProcessAlive } from '../liveness.js';

/** The ACP child agent this factory starts, one real process per run. */
export const FUZZ_ACP_AGENT = fileURLToPath(new URL('./fuzz-acp-agent.mjs', import.meta.url));

/**
 * The acp provider over real child processes; liveness is every recorded child pid that still
 * exists. A child marks `<pid>.streamed` once the provider has read its chunk (see the agent): the
 * fixture reports it as streamed, so a cancel after it must keep the chunk.
 */
export const acpFactory: ProviderFactory = {
  name: 'acp',
  create: ({ runtime, scratch, streamed }) => {
    const reported = new Set<string>();
    const watcher = watch(scratch, () => reportStreamed(scratch, reported, streamed));
    return {
      provider: createAcpProvider(
        {
          command: process.execPath,
          args: [FUZZ_ACP_AGENT],
          env: { FUZZ_PID_DIR: scratch },
          stderr: 'log',
          disposeEofGraceMs: 1_000,
          disposeTermGraceMs: 1_000,
        },
        { logger: runtime.logger, sessionsRoot: runtime.sessions.root },
      ),
      alive: () => liveChildren(scratch),
      close: () => {
        watcher.close();
        return Promise.resolve();
      },
    };
  },
};

/** Reports each `<pid>.streamed` marker (`lineage\ntext`, renamed into place whole) once. */
function reportStreamed(pidDir: string, reported: Set<string>, streamed: FixtureContext['streamed']): void {
  for (const name of readdirSync(pidDir)) {
    if (!/^\d+\.streamed$/.test(name) || reported.has(name)) continue;
    reported.add(name);
    const [lineage = '', text = ''] = readFileSync(join(pidDir, name), 'utf8').split('\n');
    streamed(lineage, text);
  }
}

function liveChildren(pidDir: string): LiveThing[] {
  return readdirSync(pidDir)
    .filter((name) => /^\d+$/.test(name) && isProcessAlive(Number(name)))
    .map((pid) => ({ kind: 'process', id: `pid ${pid}`, lineage: readFileSync(`${pidDir}/${pid}`, 'utf8') }));
}
