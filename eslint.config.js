// The lint gate of `npm run lint` (and so of .ci/run): the recommended sets plus a few rules that guard
// what this codebase promises: no loose equality, no unused code, no console output from library code
// (the CLI writes through its io, the harness through its logger). Not type-aware: type-aware rules
// (no-floating-promises) cost three times the CPU, past the gate's budget, and found nothing real here.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Node's globals, for the plain .mjs scripts (no `globals` package is installed). */
const nodeGlobals = Object.fromEntries(
  [
    'AbortController',
    'AbortSignal',
    'Buffer',
    'TextDecoder',
    'TextEncoder',
    'URL',
    'clearInterval',
    'clearTimeout',
    'console',
    'fetch',
    'process',
    'queueMicrotask',
    'setImmediate',
    'setInterval',
    'setTimeout',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'recordings/', '**/recordings/', 'node_modules/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      eqeqeq: ['error', 'always'],
      // Deliberate: ANSI escapes are stripped from CLI output and XML-invalid characters from JUnit text.
      'no-control-regex': 'off',
      // Tests match the CLI's column-aligned output literally; `/a  b/` reads like the output it matches.
      'no-regex-spaces': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ['harness/**', 'providers/**', 'toolkit/**'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // A failing onAppend listener has no caller to throw to: the event is stored, the failure goes to stderr.
    files: ['harness/session/file-session.ts'],
    rules: { 'no-console': ['error', { allow: ['error'] }] },
  },
);
