import { basename, isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedStartRequest, SubagentProvider, SubagentRun } from '../../../providers/seam/types.js';
import type { ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';
import { toyFactory, ToyProvider, ToyRun, type ToyContext } from '../toy-provider.js';
import type { LifecyclePromise } from '../promises.js';
import type { ProviderFactory } from '../types.js';

/** A deliberately broken provider (or seam): one flaw, and the promise whose check must catch it. */
export interface Mutant extends ProviderFactory {
  /** The promise id the suite must report for it. */
  readonly breaks: LifecyclePromise;
  /** The flaw, in a sentence. */
  readonly flaw: string;
  readonly module: string;
}

/** The module's path as `--provider` takes it: relative to the working directory when inside it. */
function modulePath(moduleUrl: string): string {
  const path = fileURLToPath(moduleUrl);
  const near = relative(process.cwd(), path);
  return near.startsWith('..') || isAbsolute(near) ? path : near;
}

/** A mutant defined in the module at `moduleUrl` (pass `import.meta.url`), named after its file. */
export function mutant(
  moduleUrl: string,
  flaw: string,
  breaks: LifecyclePromise,
  factory: Omit<ProviderFactory, 'name' | 'module'>,
): Mutant {
  const name = `mutant-${basename(fileURLToPath(moduleUrl)).replace(/\.[cm]?[jt]s$/, '')}`;
  return { ...factory, name, module: modulePath(moduleUrl), flaw, breaks };
}

/** A mutant of the toy provider: `make` builds the broken variant (a subclass overriding one step). */
export function toyMutant(
  moduleUrl: string,
  flaw: string,
  breaks: LifecyclePromise,
  make: (ctx: ToyContext) => SubagentProvider,
): Mutant {
  const { create } = toyFactory('toy', make);
  return mutant(moduleUrl, flaw, breaks, { create });
}

type ToyRunClass = new (...args: ConstructorParameters<typeof ToyRun>) => ToyRun;

/** A mutant whose provider is correct and whose runs are the broken `Run` (a ToyRun subclass overriding one step). */
export function toyRunMutant(moduleUrl: string, flaw: string, breaks: LifecyclePromise, Run: ToyRunClass): Mutant {
  class Provider extends ToyProvider {
    protected override makeRun(id: string, request: ResolvedStartRequest, outcome: ChildOutcome): SubagentRun {
      return new Run(id, request, outcome, this.ctx);
    }
  }
  return toyMutant(moduleUrl, flaw, breaks, (ctx) => new Provider(ctx));
}
