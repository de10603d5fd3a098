// The model server grew into `nestcast serve` (toolkit/serve/): script mode is what this was.
export { startModelServer } from '../serve/start-model-server.js';
export type { ModelServer, ModelServerOptions } from '../serve/start-model-server.js';
