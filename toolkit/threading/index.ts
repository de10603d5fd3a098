export { Threader, type ReplySource, type ThreadInput } from './threader.js';
export { threadCalls, messagesOf, type FlatCall } from './thread-calls.js';
export { mayAskForTools, replyOfResponse } from './reply-of-response.js';
export type { AmbiguousChild, Placement, Reply, ToolCallRef } from './types.js';
