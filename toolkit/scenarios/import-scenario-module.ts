import { register as registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

type ModuleImporter = (file: string) => Promise<unknown>;

let outsideVitest: Promise<ModuleImporter> | undefined;

/**
 * Imports a scenario file (`.ts`, `.mts`, `.js`, `.mjs`) in whatever project it sits in.
 * Inside a vitest worker it goes through vitest's own module loading (`vi.importActual`), so the
 * project's vite config (aliases, plugins) applies and nestcast's built files need no loader.
 * Elsewhere it goes through a tsx loader registered once under its own namespace, which handles
 * TypeScript in ESM and CommonJS packages alike and leaves the process's own loading untouched.
 */
export async function importScenarioModule(file: string): Promise<unknown> {
  const importer = insideVitestWorker() ? await vitestImporter() : await (outsideVitest ??= tsxImporter());
  return importer(file);
}

// Set by vitest in each worker; an env variable would also be inherited by child processes.
function insideVitestWorker(): boolean {
  return '__vitest_worker__' in globalThis;
}

async function vitestImporter(): Promise<ModuleImporter> {
  const { vi } = await import('vitest');
  return (file) => vi.importActual(file);
}

const NAMESPACE = 'nestcast-scenarios';

async function tsxImporter(): Promise<ModuleImporter> {
  const { register } = await import('tsx/esm/api');
  const scoped = register({ namespace: NAMESPACE });
  // After tsx's, so it runs first: see SHARED_NESTCAST_HOOKS.
  registerHooks(`data:text/javascript,${encodeURIComponent(SHARED_NESTCAST_HOOKS)}`);
  return (file) => scoped.import(pathToFileURL(file).href, import.meta.url);
}

/**
 * tsx marks every module a namespaced import reaches with its namespace in the URL, so a scenario's
 * `import … from 'nestcast/toolkit'` would load a second nestcast, with its own module state, in
 * every process (0.6 s for 40 scenarios on 2 cores). This resolve hook resolves `nestcast` imports
 * of scenario modules as from an ordinary module: to the package's own files, which are the running
 * CLI's when it is that same install. Proved in test/newcomer/packed-tarball.test.ts.
 */
const SHARED_NESTCAST_HOOKS = `
const MARK = ${JSON.stringify(NAMESPACE)};
export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (parent === undefined || !(specifier === 'nestcast' || specifier.startsWith('nestcast/'))) return nextResolve(specifier, context);
  const url = new URL(parent);
  if (url.searchParams.get('tsx-namespace') !== MARK) return nextResolve(specifier, context);
  url.searchParams.delete('tsx-namespace');
  return nextResolve(specifier, { ...context, parentURL: url.href });
}
`;

/**
 * The definition a scenario module exports by default. A TypeScript file compiled as CommonJS
 * (a project without `"type": "module"`) arrives wrapped once more: `{ default: { default } }`.
 */
export function defaultExport(module: unknown): unknown {
  const outer = (module as { default?: unknown } | null)?.default;
  const inner = (outer as { default?: unknown; __esModule?: unknown } | null | undefined)?.default;
  const looksWrapped =
    outer !== null && typeof outer === 'object' && !('steps' in outer) && !('program' in outer) && inner !== undefined;
  return looksWrapped ? inner : outer;
}
