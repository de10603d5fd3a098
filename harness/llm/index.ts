export * from './types.js';
export { LlmError, type LlmErrorCode } from './errors.js';
export { LlmService } from './llm-service.js';
export {
  createOpenAICompatibleAdapter,
  type OpenAICompatibleConfig,
} from './openai-compatible/openai-compatible-adapter.js';
export { SseDecoder, type SseMessage } from './openai-compatible/sse-decoder.js';
export { ChunkTranslator } from './openai-compatible/chunk-translator.js';
export { buildRequestBody } from './openai-compatible/request-body.js';
export { ModelStreamTap } from './model-stream-tap.js';
