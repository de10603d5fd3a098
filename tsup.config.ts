import { copyFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';

const libraries = {
  'harness/index': 'harness/index.ts',
  'providers/index': 'providers/index.ts',
  'toolkit/index': 'toolkit/index.ts',
  vitest: 'toolkit/vitest/index.ts',
  fuzz: 'toolkit/fuzz/index.ts',
};

export default defineConfig({
  // The guard preloaded into worker threads started during replay (`--require`): a file of its own.
  entry: { ...libraries, cli: 'toolkit/cli/bin.ts', 'worker-thread-guard': 'toolkit/guard/worker-thread-guard.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  // The type declarations are tsc's (tsconfig.build.json, into dist/types/, before this runs):
  // `npm start` builds only the JavaScript and leaves them be.
  dts: false,
  clean: ['!types/**'],
  sourcemap: true,
  splitting: true,
  external: ['vitest', 'openai'],
  // The fuzzer's ACP agent is a plain script the acp factory starts with node; it sits beside the chunks.
  onSuccess: async () => {
    await copyFile('toolkit/fuzz/factories/fuzz-acp-agent.mjs', 'dist/fuzz-acp-agent.mjs');
  },
});
