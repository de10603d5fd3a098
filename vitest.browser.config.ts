import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the HTML reports in a real headless Chromium (the system package,
// /usr/bin/chromium, driven by playwright-core; nothing is downloaded). Separate from `npm test`.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
