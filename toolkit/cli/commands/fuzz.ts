import { FUZZ_HELP, fuzzMain } from '../../fuzz/fuzz-main.js';
import type { Command } from '../command.js';

export const fuzzCommand: Command = {
  name: 'fuzz',
  summary: 'Fuzz a subagent provider’s lifecycle ordering',
  help: FUZZ_HELP,
  run: (argv, io) => fuzzMain(argv, io),
};
