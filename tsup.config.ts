import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    'harness/index': 'harness/index.ts',
    'providers/index': 'providers/index.ts',
    'toolkit/index': 'toolkit/index.ts',
    vitest: 'toolkit/vitest/index.ts',
    cli: 'toolkit/cli/main.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: true,
  clean: true,
  sourcemap: true,
  splitting: true,
  external: ['vitest', 'openai'],
});
