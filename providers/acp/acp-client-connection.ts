import {
  client,
  methods,
  type AnyMessage,
  type Stream,
  type ClientConnection,
  type PermissionOption,
  type RequestPermissionOutcome,
} from '@agentclientprotocol/sdk';
import type { AcpChannel } from './acp-channel.js';
import type { PermissionPolicy } from './acp-provider-config.js';
import { validateSessionUpdate, type InvalidSessionUpdate } from './session-update-validator.js';

/** What the run learns from the child between its requests. */
export interface ClientCallbacks {
  /** Text of an `agent_message_chunk` of our session; thoughts, plans and tool updates are not part of the output. */
  onAgentText(text: string): void;
  /** The remote session id once `session/new` answered; updates for any other session are ignored. */
  sessionId(): string | undefined;
  /** Any update or request from the child: it is not idle. */
  heard(): void;
  /** The policy in force now: a cancelled run refuses every permission whatever the config says. */
  permissionPolicy(): PermissionPolicy;
  /** A `session/update` the ACP schema refuses: the SDK would print a line to stderr and drop it. */
  onInvalidUpdate(invalid: InvalidSessionUpdate): void;
}

/** The ACP client side, over the channel's frames. */
export function connectAcpClient(channel: AcpChannel, callbacks: ClientCallbacks): ClientConnection {
  const app = client({ name: 'nestcast' })
    .onNotification(methods.client.session.update, ({ params }) => {
      const { update } = params;
      callbacks.heard();
      if (params.sessionId !== callbacks.sessionId()) return;
      if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text')
        callbacks.onAgentText(update.content.text);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      callbacks.heard();
      return { outcome: permissionOutcome(callbacks.permissionPolicy(), params.options) };
    });
  return app.connect(withoutInvalidUpdates(channel.stream, callbacks));
}

/**
 * The channel's frames with every `session/update` the ACP schema refuses taken out and handed to
 * `onInvalidUpdate`. The SDK checks them too, but on a failure it only prints "Error handling
 * notification" to stderr and drops the update, before any handler of ours could see it.
 */
function withoutInvalidUpdates(stream: Stream, callbacks: ClientCallbacks): Stream {
  const checked = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      if ('method' in message && message.method === methods.client.session.update && !('id' in message)) {
        const verdict = validateSessionUpdate(message.params);
        if (!verdict.ok) {
          callbacks.heard();
          callbacks.onInvalidUpdate(verdict.invalid);
          return;
        }
      }
      controller.enqueue(message);
    },
  });
  return { readable: stream.readable.pipeThrough(checked), writable: stream.writable };
}

/** `allow` selects the first allow-shaped option; otherwise, or when none is offered, the request is cancelled. */
export function permissionOutcome(
  policy: PermissionPolicy,
  options: readonly PermissionOption[],
): RequestPermissionOutcome {
  const allow =
    policy === 'allow'
      ? options.find((option) => option.kind === 'allow_once' || option.kind === 'allow_always')
      : undefined;
  return allow ? { outcome: 'selected', optionId: allow.optionId } : { outcome: 'cancelled' };
}
