import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { SessionNotification } from '@agentclientprotocol/sdk';

/** What the ACP SDK's zod schema answers; only what this file reads of it. */
type Parsed =
  | { readonly success: true; readonly data: SessionNotification }
  | {
      readonly success: false;
      readonly error: {
        readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
      };
    };

/**
 * The very schema the SDK (2.4.0, exact-pinned) checks `session/update` params with. It does not
 * export it, and on a failure it only prints "Error handling notification" to stderr and drops
 * the update; checking first lets the run report what was dropped and why. Loaded from the file
 * the SDK imports it from, so the two can never disagree.
 */
const sdkEntry = createRequire(import.meta.url).resolve('@agentclientprotocol/sdk');
const { zSessionNotification } = (await import(pathToFileURL(`${sdkEntry}/../../unstable/schema/zod.gen.js`).href)) as {
  zSessionNotification: { safeParse(params: unknown): Parsed };
};

/** A `session/update` the child sent that the ACP schema refuses. */
export interface InvalidSessionUpdate {
  /** Its `update.sessionUpdate` tag, when it has one (`tool_call_update`, `agent_message_chunk`, …). */
  readonly kind: string | undefined;
  /** The schema's complaints, `path: message` each. */
  readonly problems: readonly string[];
  /** The params as sent, as JSON, cut to a readable length. */
  readonly params: string;
}

const SHOWN_PARAMS_CHARS = 600;

/** The params checked against the ACP schema: the typed notification, or what is wrong with it. */
export function validateSessionUpdate(
  params: unknown,
):
  | { readonly ok: true; readonly notification: SessionNotification }
  | { readonly ok: false; readonly invalid: InvalidSessionUpdate } {
  const parsed = zSessionNotification.safeParse(params);
  if (parsed.success) return { ok: true, notification: parsed.data };
  const json = JSON.stringify(params) ?? String(params);
  return {
    ok: false,
    invalid: {
      kind: updateKind(params),
      problems: parsed.error.issues.map(
        (issue) => `${issue.path.map(String).join('.') || '(params)'}: ${issue.message}`,
      ),
      params: json.length > SHOWN_PARAMS_CHARS ? `${json.slice(0, SHOWN_PARAMS_CHARS)}… (${json.length} chars)` : json,
    },
  };
}

function updateKind(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const update: unknown = (params as { update?: unknown }).update;
  if (typeof update !== 'object' || update === null) return undefined;
  const kind: unknown = (update as { sessionUpdate?: unknown }).sessionUpdate;
  return typeof kind === 'string' ? kind : undefined;
}
