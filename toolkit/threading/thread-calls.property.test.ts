import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Json } from '../canonical/canonical-json.js';
import type { StreamedResponse } from '../cassette/types.js';
import { fuzzRuns } from '../arbitraries/fuzz-runs.js';
import { threadCalls, type FlatCall } from './thread-calls.js';

/** A session of a random tree: its prompt, the tool calls its first reply makes (one child each), its final answer. */
interface TreeSession {
  readonly lineage: string;
  readonly prompt: string;
  readonly calls: readonly { readonly id: string; readonly arg: string; readonly child: TreeSession }[];
}

const word = fc.stringMatching(/^[a-z0-9]{3,10}$/);
const CHILD_PROMPT = 'Please handle: ';
/** An argument inside the prompt's fixed words ("and" in "handle") matches every child: a genuine ambiguity too. */
const argument = word.filter((text) => !CHILD_PROMPT.includes(text));

function treeArbitrary(): fc.Arbitrary<TreeSession> {
  // Ids and arguments unique across the whole tree: equal arguments are a genuine ambiguity, tested apart.
  return fc
    .record({
      shape: fc.array(fc.nat(4), { minLength: 1, maxLength: 12 }),
      ids: fc.uniqueArray(word, { minLength: 40, maxLength: 40 }),
      args: fc.uniqueArray(argument, { minLength: 40, maxLength: 40 }),
    })
    .map(({ shape, ids, args }) => {
      let next = 0;
      let budget = 0;
      const build = (lineage: string, prompt: string, depth: number): TreeSession => {
        const fanOut = depth >= 3 ? 0 : Math.min(shape[budget++ % shape.length] as number, 4);
        const calls = [];
        for (let i = 0; i < fanOut && next < ids.length; i++) {
          const id = `call_${ids[next] as string}`;
          const arg = args[next++] as string;
          calls.push({ id, arg, child: build(`${lineage}/${id}`, `${CHILD_PROMPT}${arg}`, depth + 1) });
        }
        return { lineage, prompt, calls };
      };
      return build('main', 'Start the job.', 0);
    });
}

function stream(text: string, toolCalls: readonly { id: string; arg: string }[]): StreamedResponse {
  const events = [
    { delay: 0, data: JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant', content: text } }] }) },
    ...toolCalls.flatMap((call, index) => {
      const args = JSON.stringify({ task: call.arg });
      return [
        {
          delay: 0,
          data: JSON.stringify({
            choices: [
              {
                index: 0,
                delta: {
                  tool_calls: [
                    { index, id: call.id, type: 'function', function: { name: 'agent', arguments: args.slice(0, 5) } },
                  ],
                },
              },
            ],
          }),
        },
        {
          delay: 0,
          data: JSON.stringify({
            choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: args.slice(5) } }] } }],
          }),
        },
      ];
    }),
  ];
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, events, done: true };
}

/**
 * Each session's calls as a little program: call 1 (its prompt), then, if it made tool calls, call 2
 * once every child has finished (the answers re-serialised with spaces, as frameworks do).
 */
function* sessionCalls(
  session: TreeSession,
  finished: Set<string>,
): Generator<(FlatCall & { lineage: string }) | 'blocked', void, void> {
  const first: Json[] = [
    { role: 'system', content: 'You are an agent.' },
    { role: 'user', content: session.prompt },
  ];
  const answer = `done ${session.lineage}`;
  const firstText = session.calls.length === 0 ? answer : 'Delegating.';
  yield {
    lineage: session.lineage,
    request: { model: 'm', messages: first },
    response: stream(firstText, session.calls),
  };
  if (session.calls.length === 0) return;
  while (!session.calls.every((call) => finished.has(call.child.lineage))) yield 'blocked';
  const assistant = {
    role: 'assistant',
    content: null,
    tool_calls: session.calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: 'agent', arguments: JSON.stringify({ task: call.arg }, null, 1) },
    })),
  };
  const results = session.calls.map((call) => ({
    role: 'tool',
    tool_call_id: call.id,
    content: `done ${call.child.lineage}`,
  }));
  yield {
    lineage: session.lineage,
    request: { model: 'm', messages: [...first, assistant, ...results] },
    response: stream(answer, []),
  };
}

/** One arrival order: at each step the `picks` choose which ready session calls next. */
function arrivals(root: TreeSession, picks: readonly number[]): (FlatCall & { lineage: string })[] {
  const finished = new Set<string>();
  const running: {
    session: TreeSession;
    program: ReturnType<typeof sessionCalls>;
    pending?: FlatCall & { lineage: string };
  }[] = [];
  const out: (FlatCall & { lineage: string })[] = [];
  const startSession = (session: TreeSession): void =>
    void running.push({ session, program: sessionCalls(session, finished) });
  startSession(root);
  let step = 0;
  while (running.length > 0) {
    const ready = running.filter((actor) => {
      if (actor.pending) return true;
      const next = actor.program.next();
      if (next.done) {
        finished.add(actor.session.lineage);
        running.splice(running.indexOf(actor), 1);
        return false;
      }
      if (next.value === 'blocked') return false;
      actor.pending = next.value;
      return true;
    });
    if (ready.length === 0) continue;
    const actor = ready[(picks[step++ % picks.length] as number) % ready.length];
    if (!actor?.pending) continue;
    out.push(actor.pending);
    // A call's tool calls start their children once it has answered.
    if (
      actor.session.lineage === actor.pending.lineage &&
      out.filter((call) => call.lineage === actor.session.lineage).length === 1
    ) {
      for (const call of actor.session.calls) startSession(call.child);
    }
    delete actor.pending;
  }
  return out;
}

describe('content threading over random session trees', () => {
  test("every call gets its session's harness lineage, <parent>/<tool-call id>, whatever order the sessions arrive in", () => {
    fc.assert(
      fc.property(
        treeArbitrary(),
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        (tree, picksA, picksB) => {
          const orderA = arrivals(tree, picksA);
          const orderB = arrivals(tree, picksB);
          const threadedA = threadCalls(orderA);
          const threadedB = threadCalls(orderB);
          expect(threadedA.lineages).toEqual(orderA.map((call) => call.lineage));
          expect(threadedB.lineages).toEqual(orderB.map((call) => call.lineage));
          expect(threadedA.ambiguities).toEqual([]);
        },
      ),
      { numRuns: fuzzRuns(120) },
    );
  });

  test('two open tool calls with the same argument make the child AMBIGUOUS_CHILD, naming both calls and the fix', () => {
    const twin = {
      id: 'call_b',
      arg: 'same task',
      child: { lineage: 'main/call_b', prompt: 'Please handle: same task', calls: [] },
    };
    const tree: TreeSession = {
      lineage: 'main',
      prompt: 'Start.',
      calls: [
        {
          id: 'call_a',
          arg: 'same task',
          child: { lineage: 'main/call_a', prompt: 'Please handle: same task', calls: [] },
        },
        twin,
      ],
    };
    const { lineages, ambiguities } = threadCalls(arrivals(tree, [0]));
    expect(lineages).toEqual(['main', 'main/call_a', 'main/call_b', 'main']);
    expect(ambiguities).toHaveLength(1);
    expect(ambiguities[0]).toMatchObject({ code: 'AMBIGUOUS_CHILD', lineage: 'main/call_a' });
    expect(ambiguities[0]?.message).toMatch(/call_a.*call_b[\s\S]*x-session-lineage/);
  });
});
