export { loadScript } from './load-script.js';
export { startModelServer, type ModelServer } from './model-server.js';
