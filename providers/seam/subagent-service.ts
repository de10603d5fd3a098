import { randomUUID } from 'node:crypto';
import type { Disposer } from '../../harness/runtime/disposer.js';
import type { EventBus } from '../../harness/runtime/event-bus.js';
import type { HarnessEvents } from '../../harness/runtime/events.js';
import type { Plugin } from '../../harness/runtime.js';
import { childLineage, ordinalSpawnedBy } from '../../harness/session/lineage.js';
import { SubagentError } from './errors.js';
import { announceRun } from './run-lifecycle.js';
import { assertCapabilities, assertWellFormed, startTimeCopies } from './start-validation.js';
import {
  NO_START_CAPABILITIES,
  type ResolvedStartRequest,
  type SubagentCapabilities,
  type SubagentProvider,
  type SubagentRun,
  type SubagentStartRequest,
} from './types.js';

declare module '../../harness/runtime/events.js' {
  interface HarnessServices {
    subagents: SubagentService;
  }
}

/**
 * The registry of named subagent providers, which coexist. `start` checks a request completely
 * before the chosen provider does any work, then announces the run it gets back.
 */
export class SubagentService {
  private readonly providers = new Map<string, SubagentProvider>();
  /** Each provider's capabilities as they were when it registered: what every start is checked against. */
  private readonly capabilities = new Map<SubagentProvider, SubagentCapabilities>();
  /** Per parent agent id: how many children got an ordinal (`c<N>`) lineage. */
  private readonly ordinals = new Map<string, number>();

  constructor(private readonly events: EventBus<HarnessEvents>) {}

  /** Registers a provider under its name; the disposer removes it. A taken name is refused. */
  registerProvider(provider: SubagentProvider): Disposer {
    if (this.providers.has(provider.name)) {
      throw new SubagentError(
        'DUPLICATE_PROVIDER',
        `a subagent provider named "${provider.name}" is already registered; unload it first or register under another name`,
      );
    }
    this.providers.set(provider.name, provider);
    this.capabilities.set(provider, snapshotCapabilities(provider.capabilities));
    this.events.emit('subagent/provider-added', provider);
    return () => {
      if (this.providers.get(provider.name) !== provider) return;
      this.providers.delete(provider.name);
      this.capabilities.delete(provider);
      this.events.emit('subagent/provider-removed', { name: provider.name });
    };
  }

  getProvider(name: string): SubagentProvider | undefined {
    return this.providers.get(name);
  }

  /**
   * The capabilities `name` registered with, frozen: a later change to the provider's own
   * `capabilities` (by it, or by a `provider-added` listener) is ignored.
   */
  capabilitiesOf(name: string): SubagentCapabilities | undefined {
    const provider = this.providers.get(name);
    return provider === undefined ? undefined : this.capabilities.get(provider);
  }

  /** Provider names, in registration order. */
  list(): string[] {
    return [...this.providers.keys()];
  }

  /**
   * Starts a child on the named provider and resolves with the ready run, which the caller owns
   * (and must dispose). Refused before the provider is called: an unknown provider, a capability it
   * lacks, a malformed request, a child deeper than `maxDepth`, a parent agent already disposed.
   */
  async start(name: string, request: SubagentStartRequest): Promise<SubagentRun> {
    const provider = this.providers.get(name);
    if (!provider) {
      throw new SubagentError(
        'NO_PROVIDER',
        `no subagent provider registered for "${name}" (registered: ${this.list().join(', ') || 'none'}); load its plugin first`,
      );
    }
    assertCapabilities(provider.name, this.capabilitiesOf(name) ?? NO_START_CAPABILITIES, request);
    assertWellFormed(provider, request);
    const parent = request.parent;
    const depth = parent.depth + 1;
    if (!Number.isSafeInteger(depth)) {
      throw new SubagentError(
        'DEPTH_EXCEEDED',
        `subagent depth of a child of ${parent.lineage} (at depth ${String(parent.depth)}) is not a safe integer; delegate from a shallower agent`,
      );
    }
    if (request.maxDepth !== undefined && depth > request.maxDepth) {
      throw new SubagentError(
        'DEPTH_EXCEEDED',
        `subagent depth ${depth} exceeds maxDepth ${request.maxDepth}: agent ${parent.lineage} is at depth ${parent.depth}; ` +
          'raise maxDepth or delegate from a shallower agent',
      );
    }
    // A disposed parent has no turn to answer and no session to hang a child from: no provider sees it.
    if (parent.disposed) {
      throw new SubagentError(
        'PARENT_DISPOSED',
        `cannot start a subagent on provider "${name}": its parent agent ${parent.lineage} (${parent.id}) is disposed; start it from a live agent`,
      );
    }
    const spawnedBy = request.spawnedBy ?? this.nextOrdinal(parent.id);
    const resolved: ResolvedStartRequest = {
      ...request,
      ...startTimeCopies(provider, request),
      runId: randomUUID(),
      spawnedBy,
      lineage: childLineage(parent.lineage, spawnedBy),
      depth,
    };
    const run = await provider.start(resolved);
    return announceRun(
      this.events,
      run,
      { provider: provider.name, parentId: parent.id, lineage: resolved.lineage },
      resolved.runId,
    );
  }

  private nextOrdinal(parentId: string): string {
    const n = (this.ordinals.get(parentId) ?? 0) + 1;
    this.ordinals.set(parentId, n);
    return ordinalSpawnedBy(n);
  }
}

/** A frozen copy of `capabilities`: each known flag, `true` only when it is exactly `true`. */
function snapshotCapabilities(capabilities: SubagentCapabilities): SubagentCapabilities {
  return Object.freeze({
    outputSchema: capabilities.outputSchema === true,
    maxDepth: capabilities.maxDepth === true,
    toolFilter: capabilities.toolFilter === true,
    persona: capabilities.persona === true,
  });
}

/** Provides the `subagents` service for the plugin's lifetime. Load it before any provider or tool. */
export const subagentsService: Plugin = (scope) => {
  scope.add(scope.runtime.provide('subagents', new SubagentService(scope.runtime.events)));
};

/** The runtime's `subagents` service; a plugin that needs it fails loud when it is not loaded. */
export function requireSubagents(
  runtime: { find(name: 'subagents'): SubagentService | undefined },
  who: string,
): SubagentService {
  const service = runtime.find('subagents');
  if (!service) {
    throw new SubagentError(
      'NO_SERVICE',
      `${who} needs the "subagents" service; load the subagentsService plugin first`,
    );
  }
  return service;
}
