export { replaceFolder, type SwapJournal } from './replace-folder.js';
export { recoverInterruptedSwaps } from './recover-swaps.js';
export { STAGING_DIR } from './staging.js';
