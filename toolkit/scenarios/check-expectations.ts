import type { SessionLog } from '../../harness/session/types.js';
import { finalAssistantText } from '../../harness/agents/final-output.js';
import { namedList } from '../errors/named-list.js';
import type { ScenarioExpectations } from './types.js';

/** Every way the harvested sessions fall short of the scenario's expectations, as sentences. */
export function checkExpectations(expect: ScenarioExpectations | undefined, sessions: readonly SessionLog[]): string[] {
  if (!expect) return [];
  const problems: string[] = [];
  const byLineage = new Map(sessions.map((session) => [session.header.lineage, session]));
  const session = (lineage: string): SessionLog | undefined => {
    const found = byLineage.get(lineage);
    if (!found)
      problems.push(
        `expected a session "${lineage}" but the run produced: ${namedList([...byLineage.keys()], lineage) || 'none'}`,
      );
    return found;
  };
  if (expect.sessions !== undefined && sessions.length !== expect.sessions) {
    problems.push(
      `expected ${expect.sessions} sessions, the run produced ${sessions.length} (${namedList(sessions.map((s) => s.header.lineage))})`,
    );
  }
  for (const [lineage, reason] of Object.entries(expect.turnEnd ?? {})) {
    const log = session(lineage);
    const last = log?.events.findLast((event) => event.type === 'turn/end');
    const actual = last?.type === 'turn/end' ? last.data.reason : 'no turn ended';
    if (log && actual !== reason)
      problems.push(`expected the last turn of "${lineage}" to end ${reason}, it ended ${actual}`);
  }
  for (const [lineage, pattern] of Object.entries(expect.output ?? {})) {
    const log = session(lineage);
    if (!log) continue;
    const seed = log.header.seedLength ?? 0;
    const output = finalAssistantText(log.events, seed);
    if (!matches(output, pattern))
      problems.push(
        `expected the final answer of "${lineage}" to match ${String(pattern)}, it was ${JSON.stringify(output)}`,
      );
  }
  for (const [lineage, patterns] of Object.entries(expect.toolResults ?? {})) {
    const log = session(lineage);
    if (!log) continue;
    const outputs = log.events.flatMap((event) => (event.type === 'tool/result' ? [event.data.output] : []));
    for (const pattern of patterns) {
      if (!outputs.some((output) => matches(output, pattern))) {
        problems.push(
          `expected a tool result of "${lineage}" matching ${String(pattern)}; its results were ${JSON.stringify(outputs)}`,
        );
      }
    }
  }
  return problems;
}

function matches(text: string, pattern: RegExp | string): boolean {
  return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
}
