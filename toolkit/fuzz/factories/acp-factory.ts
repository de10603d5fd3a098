import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createAcpProvider } from '../../../providers/acp/acp-provider.js';
import type { LiveThing, ProviderFactory } from '../types.js';
import { isProcessAlive } from '../liveness.js';

/** The ACP child agent this factory starts, one real process per run. */
export const FUZZ_ACP_AGENT = fileURLToPath(new URL('./fuzz-acp-agent.mjs', import.meta.url));

/** The acp provider over real child processes; liveness is every recorded child pid that still exists. */
export const acpFactory: ProviderFactory = {
  name: 'acp',
  create: ({ runtime, scratch }) => ({
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
  }),
};

function liveChildren(pidDir: string): LiveThing[] {
  return readdirSync(pidDir)
    .filter((name) => /^\d+$/.test(name) && isProcessAlive(Number(name)))
    .map((pid) => ({ kind: 'process', id: `pid ${pid}`, lineage: readFileSync(`${pidDir}/${pid}`, 'utf8') }));
}
