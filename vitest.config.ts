import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files that keep a fork of their own: those driving the built CLI (`*.cli.test.ts`), and the
 * folders whose tests hold process-wide state that can outlive a test (the CLI's signal handlers and
 * live workers, the ACP provider's process groups, the interceptors kept applied beside the network
 * guard for msw and nock) or start long-lived programs (test/, serve, the fuzz factories). Every
 * other file shares a fork with the files before it (`isolate: false`),
 * which saves a fork's start and module loading, about 1.3 s of CPU, per file (docs/performance.md);
 * such a file puts back what it changes (environment, globals, listeners) and waits for the
 * processes it starts.
 */
const OWN_PROCESS = [
  '**/*.cli.test.ts',
  'test/**/*.test.ts',
  'scenarios/**/*.test.ts',
  'providers/acp/**/*.test.ts',
  'toolkit/cli/**/*.test.ts',
  'toolkit/fuzz/factories/**/*.test.ts',
  'toolkit/guard/beside-*.test.ts',
  'toolkit/serve/**/*.test.ts',
];

const ALL = ['{harness,providers,toolkit,scenarios,test}/**/*.test.ts'];
// The live tier records against the real API: `npm run test:live`, never `npm test`; the browser
// tier drives Chromium: `npm run test:browser`; the ecosystem project (its own package.json, today's
// framework majors) runs against the packed tarball: `.ci/ecosystem`.
const NOT_NPM_TEST = ['test/live/**', 'test/browser/**', 'test/ecosystem/**', 'node_modules/**', 'dist/**'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's run-mode default (one worker fewer than the cores) is a single worker on 2 cores,
    // and most files wait on the processes they start: two overlap (docs/performance.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // What vitest's own helpers change is put back after each test.
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    // Inline projects concatenate `include` and `exclude` with the root's, so the root sets neither.
    projects: [
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, exclude: NOT_NPM_TEST } },
      {
        extends: true,
        test: { name: 'shared-process', include: ALL, exclude: [...NOT_NPM_TEST, ...OWN_PROCESS], isolate: false },
      },
    ],
  },
});
