#!/usr/bin/env node
import { main } from './main.js';

// Exits explicitly: an idle keep-alive socket of a model client must not keep a finished command alive.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`nestcast: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
