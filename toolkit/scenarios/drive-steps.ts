import type { Agent } from '../../harness/agents/agent.js';
import type { TurnOutcome } from '../../harness/agents/types.js';
import type { ModelStreamTap } from '../../harness/acp-agent/model-stream-tap.js';
import type { Runtime } from '../../harness/runtime/runtime.js';
import type { CancelTrigger, ScenarioStep } from './types.js';

/** Runs the scenario's prompts on the main agent, one after another, cancelling where a step says so. */
export async function driveSteps(
  agent: Agent,
  steps: readonly ScenarioStep[],
  watch: { readonly runtime: Runtime; readonly modelStream: ModelStreamTap },
): Promise<TurnOutcome[]> {
  const outcomes: TurnOutcome[] = [];
  for (const step of steps) {
    const abort = new AbortController();
    const disarm = step.cancel ? arm(step.cancel, watch, () => abort.abort('the scenario cancelled the prompt')) : () => undefined;
    try {
      outcomes.push(await agent.run(step.prompt, { signal: abort.signal }));
    } finally {
      disarm();
    }
  }
  return outcomes;
}

function arm(trigger: CancelTrigger, watch: { readonly runtime: Runtime; readonly modelStream: ModelStreamTap }, cancel: () => void): () => void {
  if ('whenStreamed' in trigger) {
    const { lineage, text } = trigger.whenStreamed;
    let streamed = '';
    return watch.modelStream.on(lineage, (event) => {
      if (event.type !== 'text-delta') return;
      streamed += event.text;
      if (streamed.includes(text)) cancel();
    });
  }
  const { lineage, type } = trigger.afterEvent;
  const detachers: (() => void)[] = [];
  const watchSession = (agentId: string) => {
    const child = watch.runtime.agents.get(agentId);
    if (child?.lineage !== lineage) return;
    detachers.push(
      child.session.onAppend((event) => {
        if (event.type === type) cancel();
      }),
    );
  };
  for (const agent of watch.runtime.agents.list()) watchSession(agent.id);
  detachers.push(watch.runtime.events.on('agent/created', ({ agentId }) => watchSession(agentId)));
  return () => {
    for (const detach of detachers) detach();
  };
}
