/**
 * The events of the harness bus. Other layers add theirs by declaration merging
 * (`declare module 'nestcast/harness' { interface HarnessEvents { ... } }`).
 */
export interface HarnessEvents {
  'agent/created': { readonly agentId: string; readonly lineage: string };
  'agent/disposed': { readonly agentId: string; readonly lineage: string };
  'task/registered': { readonly taskId: string; readonly kind: string; readonly owner: string };
  'task/settled': { readonly taskId: string; readonly status: 'completed' | 'failed' | 'killed' };
}

/** Services beyond the built-in ones, added by plugins (e.g. `subagents`), by declaration merging. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface HarnessServices {}
