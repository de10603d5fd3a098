import type { Agent } from '../../harness/agents/agent.js';
import type { Runtime } from '../../harness/runtime.js';

/**
 * The delegating agent, mid-delegation as in real use: one completed turn, then an open turn whose
 * tool call (`call_delegate`) has no result yet. A fork child must inherit only the first turn.
 */
export async function createDelegatingParent(runtime: Runtime, cwd: string): Promise<Agent> {
  const session = await runtime.sessions.create({ lineage: 'main', cwd });
  const text = (value: string) => [{ type: 'text' as const, text: value }];
  session.append({ type: 'user/message', data: { content: text('look at the repo') } });
  session.append({ type: 'turn/start', data: { turn: 1 } });
  session.append({ type: 'step/start', data: { turn: 1, step: 1 } });
  session.append({ type: 'assistant/message', data: { turn: 1, step: 1, content: text('It has two packages.') } });
  session.append({ type: 'step/end', data: { turn: 1, step: 1, finish: 'stop' } });
  session.append({ type: 'turn/end', data: { turn: 1, reason: 'completed' } });
  session.append({ type: 'user/message', data: { content: text('review both in parallel') } });
  session.append({ type: 'turn/start', data: { turn: 2 } });
  session.append({ type: 'step/start', data: { turn: 2, step: 1 } });
  const call = { type: 'tool-call' as const, id: 'call_delegate', name: 'delegate', arguments: '{"prompt":"review"}' };
  session.append({ type: 'assistant/message', data: { turn: 2, step: 1, content: [call] } });
  session.append({
    type: 'tool/call',
    data: { turn: 2, step: 1, id: 'call_delegate', name: 'delegate', args: { prompt: 'review' } },
  });
  return runtime.agents.create({ session });
}
