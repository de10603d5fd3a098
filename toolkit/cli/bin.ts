#!/usr/bin/env node
// First: before anything loads msw, which reads localStorage (see the file).
import './unconfigured-web-storage.js';
import { describeError } from '../../harness/error-text.js';
import { knownSecrets } from '../secrets/known-secrets.js';
import { maskPrintedSecrets } from '../secrets/mask-printed-output.js';
import { main } from './main.js';

const argv = process.argv.slice(2);
try {
  // Reads NESTCAST_SECRET_ENV: a list that is not one fails here, before anything is printed unmasked.
  knownSecrets();
} catch (error) {
  process.stderr.write(`nestcast: ${describeError(error)}\n`);
  process.exit(2);
}
// Nothing printed carries a known secret. `acp-agent` speaks JSON-RPC on stdout: its parent reads
// that, and prints what it relays through its own masked streams.
maskPrintedSecrets(process.stderr);
if (argv[0] !== 'acp-agent') maskPrintedSecrets(process.stdout);

// Exits explicitly: an idle keep-alive socket of a model client must not keep a finished command alive.
main(argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`nestcast: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
