import { defineConfig } from 'vitest/config';

// `npm run test:live`: records every scenario against the real API. Separate from `npm test`,
// which never needs a key.
export default defineConfig({
  test: {
    include: ['test/live/**/*.test.ts'],
    testTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
