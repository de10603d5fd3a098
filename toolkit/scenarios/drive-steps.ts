import type { Agent } from '../../harness/agents/agent.js';
import type { TurnOutcome } from '../../harness/agents/types.js';
import type { ModelStreamTap } from '../../harness/llm/model-stream-tap.js';
import type { Runtime } from '../../harness/runtime.js';
import { ScenarioError } from './scenario-error.js';
import type { ScenarioStep, Trigger } from './types.js';

interface Watch {
  readonly runtime: Runtime;
  readonly modelStream: ModelStreamTap;
  /** Text each lineage's model has streamed so far in the run: a trigger armed late still sees it. */
  readonly streamed: Map<string, string>;
}

/** Runs the scenario's steps on the main agent in order: prompts (maybe cancelled at a trigger) and waits. */
export async function driveSteps(
  agent: Agent,
  steps: readonly ScenarioStep[],
  context: { readonly runtime: Runtime; readonly modelStream: ModelStreamTap },
): Promise<TurnOutcome[]> {
  const watch: Watch = { ...context, streamed: new Map() };
  const stopRecording = context.modelStream.onAny((event, lineage) => {
    if (event.type === 'text-delta') watch.streamed.set(lineage, (watch.streamed.get(lineage) ?? '') + event.text);
  });
  try {
    return await runSteps(agent, steps, watch);
  } finally {
    stopRecording();
  }
}

async function runSteps(agent: Agent, steps: readonly ScenarioStep[], watch: Watch): Promise<TurnOutcome[]> {
  const outcomes: TurnOutcome[] = [];
  for (const step of steps) {
    if ('waitFor' in step) {
      await waitFor(step.waitFor, watch);
      continue;
    }
    const abort = new AbortController();
    const disarm = step.cancel
      ? arm(step.cancel, watch, () => abort.abort('the scenario cancelled the prompt'))
      : () => undefined;
    try {
      outcomes.push(await agent.run(step.prompt, { signal: abort.signal }));
    } finally {
      disarm();
    }
  }
  return outcomes;
}

/** How long a `waitFor` step may wait: reaching it is a matter of milliseconds, so this only catches a trigger that can never fire. */
const WAIT_LIMIT_MS = 30_000;

function waitFor(trigger: Trigger, watch: Watch): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      disarm();
      reject(
        new ScenarioError(
          'WAIT_TIMEOUT',
          `the step waiting for ${JSON.stringify(trigger)} was never reached; check the lineage and the text or event type it names`,
        ),
      );
    }, WAIT_LIMIT_MS);
    const disarm = arm(trigger, watch, () => {
      clearTimeout(timer);
      disarm();
      resolve();
    });
  });
}

/** Calls `reached` once the trigger's point is reached (possibly at once); returns the disarm. */
function arm(trigger: Trigger, watch: Watch, reached: () => void): () => void {
  let fired = false;
  const fire = () => {
    if (fired) return;
    fired = true;
    queueMicrotask(reached);
  };
  if ('whenStreamed' in trigger) {
    const { lineage, text } = trigger.whenStreamed;
    const check = () => {
      if ((watch.streamed.get(lineage) ?? '').includes(text)) fire();
    };
    check();
    // Subscribed after the run-wide recorder, so the text it just added is already counted.
    return watch.modelStream.onAny((_event, from) => {
      if (from === lineage) check();
    });
  }
  if ('afterChildStart' in trigger) {
    const { lineage } = trigger.afterChildStart;
    return watch.runtime.events.on('subagent/start', (info) => {
      if (info.lineage === lineage) fire();
    });
  }
  const { lineage, type } = trigger.afterEvent;
  const detachers: (() => void)[] = [];
  const watchAgent = (agentId: string) => {
    const candidate = watch.runtime.agents.get(agentId);
    if (candidate?.lineage !== lineage) return;
    detachers.push(
      candidate.session.onAppend((event) => {
        if (event.type === type) fire();
      }),
    );
  };
  for (const candidate of watch.runtime.agents.list()) watchAgent(candidate.id);
  detachers.push(watch.runtime.events.on('agent/created', ({ agentId }) => watchAgent(agentId)));
  return () => {
    for (const detach of detachers) detach();
  };
}
