import type { Logger } from '../../harness/runtime/logger.js';
import type { ResolvedAcpProviderConfig } from './acp-provider-config.js';
import { describeExit } from './describe-exit.js';
import type { Termination } from './terminate-child.js';

/** One log line per stopped child: quiet when it left on EOF, louder the further up the ladder it had to go. */
export function reportTermination(logger: Logger, label: string, pid: number | undefined, termination: Termination, config: ResolvedAcpProviderConfig): void {
  const exit = describeExit(termination.exit, config.command);
  const child = pid === undefined ? 'child' : `child pid ${pid}`;
  if (termination.step === 'sigkill') {
    logger.warn(`${label}: ${child} ignored stdin EOF (${config.disposeEofGraceMs} ms) and SIGTERM (${config.disposeTermGraceMs} ms); killed with SIGKILL`);
  } else if (termination.step === 'sigterm') {
    logger.info(`${label}: ${child} ignored stdin EOF for ${config.disposeEofGraceMs} ms; stopped with SIGTERM (${exit})`);
  } else {
    logger.debug(`${label}: ${child} ${exit} (${termination.step === 'eof' ? 'after stdin EOF' : 'before teardown'})`);
  }
}
