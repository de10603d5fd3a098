export * from './types.js';
export { LlmError, type LlmErrorCode, type LlmErrorDetails } from './errors.js';
export { LlmService, type LlmStreamOptions } from './llm-service.js';
export {
  createOpenAICompatibleAdapter,
  DEFAULT_BASE_URL,
  DEFAULT_MODEL,
  type OpenAICompatibleConfig,
} from './openai-compatible/openai-compatible-adapter.js';
export { SseDecoder, type SseMessage } from './openai-compatible/sse-decoder.js';
export { ChunkTranslator } from './openai-compatible/chunk-translator.js';
export { buildRequestBody } from './openai-compatible/request-body.js';
export { ModelStreamTap, type ModelStreamListener } from './model-stream-tap.js';
