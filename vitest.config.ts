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
  },
});
