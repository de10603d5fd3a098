export { AcpCassetteError } from './acp-cassette-error.js';
export { checkExchange } from './exchange-schema.js';
export { loadAcpCassette } from './load-acp-cassette.js';
export { ProtocolRecorder } from './protocol-recorder.js';
export { ProtocolReplay } from './replay-channel.js';
export * from './types.js';
export { exchangeFile, writeAcpCassette } from './write-acp-cassette.js';
