import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{harness,providers,toolkit,scenarios,test}/**/*.test.ts'],
    // The live tier records against the real API: `npm run test:live`, never `npm test`; the
    // browser tier drives Chromium: `npm run test:browser`; the ecosystem project (its own
    // package.json, today's framework majors) runs against the packed tarball: `.ci/ecosystem`.
    exclude: ['test/live/**', 'test/browser/**', 'test/ecosystem/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's run-mode default (one worker fewer than the cores) is a single worker on 2 cores,
    // and most files wait on the processes they start: two overlap (docs/performance.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A fork per file (vitest's default) stays: a suite run without it (`isolate: false`, about
    // 1.3 s less CPU per file) ended with every process of the run killed (docs/performance.md).
    // What vitest's own helpers change is put back after each test.
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
  },
});
