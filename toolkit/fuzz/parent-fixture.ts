import type { Agent } from '../../harness/agents/agent.js';
import type { Runtime } from '../../harness/runtime.js';
import type { NewSessionEvent } from '../../harness/session/types.js';
import type { ParentShape } from '../arbitraries/lifecycle-schedule-arbitrary.js';

const text = (value: string) => [{ type: 'text' as const, text: value }];

/** One completed turn: the user asks, the assistant answers (after a failed tool call on `tool-error`). */
function completedTurn(turn: number, ask: string, answer: string, toolError = false): NewSessionEvent[] {
  const events: NewSessionEvent[] = [
    { type: 'user/message', data: { content: text(ask) } },
    { type: 'turn/start', data: { turn } },
    { type: 'step/start', data: { turn, step: 1 } },
  ];
  let step = 1;
  if (toolError) {
    const id = `call_read_${turn}`;
    events.push(
      {
        type: 'assistant/message',
        data: { turn, step, content: [{ type: 'tool-call', id, name: 'read', arguments: '{}' }] },
      },
      { type: 'tool/call', data: { turn, step, id, name: 'read', args: {} } },
      { type: 'tool/result', data: { turn, step, id, output: 'ENOENT: no such file', isError: true } },
      { type: 'step/end', data: { turn, step, finish: 'tool-calls' } },
    );
    step = 2;
    events.push({ type: 'step/start', data: { turn, step } });
  }
  events.push(
    { type: 'assistant/message', data: { turn, step, content: text(answer) } },
    { type: 'step/end', data: { turn, step, finish: 'stop' } },
    { type: 'turn/end', data: { turn, reason: 'completed' } },
  );
  return events;
}

/**
 * The delegating agent, mid-delegation as in real use: its completed turns (`shape`: one, three,
 * or one whose last step came after a tool error), then an open turn whose tool call
 * (`call_delegate`) has no result yet. A fork child must inherit only the completed turns.
 */
export async function createDelegatingParent(
  runtime: Runtime,
  cwd: string,
  shape: ParentShape = 'one-turn',
): Promise<Agent> {
  const session = await runtime.sessions.create({ lineage: 'main', cwd });
  const completed =
    shape === 'several-turns'
      ? [
          ...completedTurn(1, 'look at the repo', 'It has two packages.'),
          ...completedTurn(2, 'which is bigger?', 'The first one.'),
          ...completedTurn(3, 'any tests?', 'Both have some.'),
        ]
      : completedTurn(1, 'look at the repo', 'It has two packages.', shape === 'tool-error-last');
  for (const event of completed) session.append(event);
  const turn = shape === 'several-turns' ? 4 : 2;
  session.append({ type: 'user/message', data: { content: text('review both in parallel') } });
  session.append({ type: 'turn/start', data: { turn } });
  session.append({ type: 'step/start', data: { turn, step: 1 } });
  const call = { type: 'tool-call' as const, id: 'call_delegate', name: 'delegate', arguments: '{"prompt":"review"}' };
  session.append({ type: 'assistant/message', data: { turn, step: 1, content: [call] } });
  session.append({
    type: 'tool/call',
    data: { turn, step: 1, id: 'call_delegate', name: 'delegate', args: { prompt: 'review' } },
  });
  return runtime.agents.create({ session });
}
