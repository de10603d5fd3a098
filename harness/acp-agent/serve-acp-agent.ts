import type { RunAcpAgentOptions } from './run-acp-agent.js';

/**
 * Serves the harness as an ACP agent until the client closes stdin, then stops any running
 * turn, disposes the runtime (closing every session file) and resolves.
 *
 * One ACP session per process: its lineage comes from NESTCAST_LINEAGE, and two sessions with one
 * lineage would be indistinguishable in recordings and harvests. The ACP SDK is loaded by this call,
 * not by `nestcast/harness`.
 */
export async function runAcpAgent(options: RunAcpAgentOptions): Promise<void> {
  const served = await import('./run-acp-agent.js');
  return served.runAcpAgent(options);
}
