import { Readable, Writable } from 'node:stream';
import {
  client,
  methods,
  ndJsonStream,
  type ClientConnection,
  type PermissionOption,
  type RequestPermissionOutcome,
} from '@agentclientprotocol/sdk';
import type { AcpChildProcess } from './acp-child-process.js';
import type { PermissionPolicy } from './acp-provider-config.js';

/** What the run learns from the child between its requests. */
export interface ClientCallbacks {
  /** Text of an `agent_message_chunk`; thoughts, plans and tool updates are not part of the output. */
  onAgentText(text: string): void;
  /** The policy in force now: a cancelled run refuses every permission whatever the config says. */
  permissionPolicy(): PermissionPolicy;
}

/** The ACP client side, speaking ND-JSON over the child's stdin/stdout. */
export function connectAcpClient(child: AcpChildProcess, callbacks: ClientCallbacks): ClientConnection {
  const app = client({ name: 'nestcast' })
    .onNotification(methods.client.session.update, ({ params }) => {
      const { update } = params;
      if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') callbacks.onAgentText(update.content.text);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => ({
      outcome: permissionOutcome(callbacks.permissionPolicy(), params.options),
    }));
  return app.connect(ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
}

/** `allow` selects the first allow-shaped option; otherwise, or when none is offered, the request is cancelled. */
export function permissionOutcome(policy: PermissionPolicy, options: readonly PermissionOption[]): RequestPermissionOutcome {
  const allow = policy === 'allow' ? options.find((option) => option.kind === 'allow_once' || option.kind === 'allow_always') : undefined;
  return allow ? { outcome: 'selected', optionId: allow.optionId } : { outcome: 'cancelled' };
}
