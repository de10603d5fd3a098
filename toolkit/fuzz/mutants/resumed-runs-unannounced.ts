import type { Disposer } from '../../../harness/runtime/disposer.js';
import { SubagentService } from '../../../providers/seam/subagent-service.js';
import type { SubagentProvider, SubagentRun, SubagentStartRequest } from '../../../providers/seam/types.js';
import { toyFactory } from '../toy-provider.js';
import { mutant } from './mutant.js';
import { runtimeWithService, withStart } from './seam-runtime.js';

/** A seam that announces a child's first run only: runs from resume() emit no subagent/start or subagent/end. */
class FirstRunOnly extends SubagentService {
  private readonly raw = new Map<string, SubagentRun>();

  override registerProvider(provider: SubagentProvider): Disposer {
    return super.registerProvider(
      withStart(provider, async (request) => {
        const run = await provider.start(request);
        this.raw.set(run.id, run);
        return run;
      }),
    );
  }

  override async start(name: string, request: SubagentStartRequest): Promise<SubagentRun> {
    const announced = await super.start(name, request);
    const raw = this.raw.get(announced.id);
    if (raw?.resume === undefined) return announced;
    return Object.assign(Object.create(announced) as SubagentRun, { resume: raw.resume.bind(raw) });
  }
}

export default mutant(import.meta.url, 'runs from resume() emit no start or end', 'one-start-and-end-per-run', {
  create: toyFactory().create,
  createRuntime: (sessionsRoot) => runtimeWithService(sessionsRoot, FirstRunOnly),
});
