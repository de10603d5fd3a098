// Node 25 and later define `globalThis.localStorage` as a getter that, unless the process was
// started with `--localstorage-file`, prints "ExperimentalWarning: localStorage is not available"
// and returns undefined. msw (the network guard's interceptor) reads it when it loads, to restore
// cookies, so every CLI command would print that warning. Without the file the storage does not
// exist anyway: the CLI makes that plain (undefined, as Node would return) before anything reads
// it. A library does not own its host's globals, so only the CLI does this; it is imported first.

const configured = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)].some((arg) =>
  arg.startsWith('--localstorage-file'),
);
const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
if (!configured && descriptor?.get !== undefined && descriptor.configurable === true)
  Object.defineProperty(globalThis, 'localStorage', {
    value: undefined,
    writable: true,
    enumerable: descriptor.enumerable ?? false,
    configurable: true,
  });
