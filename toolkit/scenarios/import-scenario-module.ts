import module from 'node:module';
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
  // After tsx's, so they run first: see SHARED_NESTCAST_HOOKS.
  const hooks = `data:text/javascript,${encodeURIComponent(SHARED_NESTCAST_HOOKS)}`;
  // Off-thread always: where tsx 4.23 hooks in-thread (Node 24.11.1+, 26), a CommonJS scenario
  // under its namespace is not found (MODULE_NOT_FOUND `…scenario.ts?namespace=…`) unless an
  // off-thread hook exists, which makes Node load it through the module loader tsx hooks. Node 26
  // deprecates `module.register` (DEP0205); this call is deliberate, so its warning is not printed.
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  try {
    module.register(hooks);
  } finally {
    process.noDeprecation = quiet;
  }
  const inThread = (module as InThreadHooks).registerHooks;
  if (inThread !== undefined) inThread({ resolve: ((await import(hooks)) as { resolve: ResolveHook }).resolve });
  return (file) => scoped.import(pathToFileURL(file).href, import.meta.url);
}

type ResolveHook = (specifier: string, context: { parentURL?: string }, next: ResolveHook) => unknown;
/** `module.registerHooks` (Node 22.15, 23.5 and later), which Node 20's types do not name. */
interface InThreadHooks {
  registerHooks?: (hooks: { resolve: ResolveHook }) => unknown;
}

/**
 * tsx marks every module a namespaced import reaches with its namespace in the URL, so a scenario's
 * `import … from 'nestcast/toolkit'` would load a second nestcast, with its own module state, in
 * every process (0.6 s for 40 scenarios on 2 cores). This resolve hook resolves `nestcast` imports
 * of scenario modules as from an ordinary module: to the package's own files, which are the running
 * CLI's when it is that same install. tsx marks an ES module with `?tsx-namespace=…`, and a
 * CommonJS one (a scenario in a package without `"type": "module"`) with `%3Fnamespace=…` in its
 * path. The hook must run before tsx's, which adds the mark: where Node has in-thread hooks
 * (`module.registerHooks`) it is one of them, registered after tsx's and so first, whether tsx
 * hooks in-thread too (tsx 4.23 from Node 22.22.3, 24.11.1, 25.1, 26) or off-thread (every in-thread
 * hook runs before the off-thread ones); on Node 20 the off-thread copy, registered after tsx's,
 * does it (elsewhere that copy finds the mark gone). Synchronous, as in-thread hooks must be:
 * off-thread, it returns the next hook's promise.
 * Proved for ESM and CommonJS projects in test/newcomer/packed-tarball.test.ts.
 */
const SHARED_NESTCAST_HOOKS = `
const NAMESPACE = ${JSON.stringify(NAMESPACE)};
const CJS_MARK = '%3Fnamespace=' + NAMESPACE;
function unmarked(parentURL) {
  const url = new URL(parentURL);
  if (url.searchParams.get('tsx-namespace') === NAMESPACE) {
    url.searchParams.delete('tsx-namespace');
    return url.href;
  }
  const at = url.pathname.indexOf(CJS_MARK);
  if (at === -1) return undefined;
  url.pathname = url.pathname.slice(0, at);
  url.search = '';
  return url.href;
}
export function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (parent === undefined || !(specifier === 'nestcast' || specifier.startsWith('nestcast/'))) return nextResolve(specifier, context);
  const parentURL = unmarked(parent);
  return nextResolve(specifier, parentURL === undefined ? context : { ...context, parentURL });
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
