export { loadScript } from './load-script.js';
export { MODEL_SERVER_HELP, modelServerMain } from './model-server-main.js';
export { startModelServer, type ModelServer } from './model-server.js';
