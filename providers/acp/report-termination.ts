import type { Logger } from '../../harness/runtime/logger.js';
import type { ResolvedAcpProviderConfig } from './acp-provider-config.js';
import { describeExit } from './describe-exit.js';
import type { JunkReport } from './frame-stream.js';
import { junkSuffix } from './junk-suffix.js';
import { KILL_WAIT_MS, type Termination } from './terminate-child.js';

/** One log line per stopped child: quiet when it left on EOF, louder the further up the ladder it had to go. */
export function reportTermination(
  logger: Logger,
  label: string,
  pid: number | undefined,
  termination: Termination,
  config: ResolvedAcpProviderConfig,
  junk?: JunkReport,
): void {
  if (junk !== undefined && junk.lines > 0)
    logger.warn(`${label}: the ACP child${junkSuffix(junk).replace(/^; it also/, '')}`);
  const exit = describeExit(termination.exit, config.command);
  const child = pid === undefined ? 'child' : `child pid ${pid}`;
  if (termination.step === 'survived') {
    logger.error(
      `${label}: processes of ${child}'s group outlived SIGKILL by ${KILL_WAIT_MS} ms: pids ${(termination.survivors ?? []).join(', ')}; they may be stuck in the kernel`,
    );
  } else if (termination.step === 'sigkill') {
    logger.warn(`${label}: ${child} ignored stdin EOF and SIGTERM; its process group was killed with SIGKILL`);
  } else if (termination.step === 'sigterm') {
    logger.info(`${label}: ${child} and its process group stopped on SIGTERM (${exit})`);
  } else {
    logger.debug(
      `${label}: ${child} ${exit} (${termination.step === 'eof' ? 'after stdin EOF' : 'before teardown'}); no process of its group is left`,
    );
  }
}
