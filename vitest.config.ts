import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{harness,providers,toolkit,scenarios,test}/**/*.test.ts'],
    // The live tier records against the real API: `npm run test:live`, never `npm test`; the
    // browser tier drives Chromium: `npm run test:browser`.
    exclude: ['test/live/**', 'test/browser/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
