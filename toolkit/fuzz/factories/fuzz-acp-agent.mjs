// The ACP child the lifecycle suite starts for the acp provider (plain JS: started per run, it must
// start fast). Its lineage (NESTCAST_LINEAGE, `.../r<i>-<outcome>`) says what it does; it records
// its pid in FUZZ_PID_DIR so the suite can see whether it is still alive, and `<pid>.streamed` once
// the client surely holds what it streamed. Stdout carries only frames.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { agent, methods, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';

const lineage = process.env.NESTCAST_LINEAGE ?? 'main';
const outcome = /-([a-z-]+)$/.exec(lineage)?.[1] ?? 'complete';
if (process.env.FUZZ_PID_DIR) writeFileSync(join(process.env.FUZZ_PID_DIR, String(process.pid)), lineage);
if (outcome === 'fail-start') process.exit(3);

const cancels = new Map();
const chunk = (sessionId, text) => ({
  sessionId,
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
});

const app = agent({ name: 'nestcast-fuzz-agent' })
  .onRequest(methods.agent.initialize, () => ({
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false },
    authMethods: [],
  }))
  .onRequest(methods.agent.session.new, () => ({ sessionId: `fuzz-${process.pid}` }))
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const say = async (text) => {
      await client.notify(methods.client.session.update, chunk(params.sessionId, text));
      // A request's answer comes back only after the client read everything sent before it: now the run has `text`.
      await client.request(methods.client.session.requestPermission, {
        sessionId: params.sessionId,
        toolCall: { toolCallId: 'sync', title: 'sync point' },
        options: [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }],
      });
      if (process.env.FUZZ_PID_DIR) {
        const marker = join(process.env.FUZZ_PID_DIR, `${process.pid}.streamed`);
        writeFileSync(`${marker}.tmp`, `${lineage}\n${text}`);
        renameSync(`${marker}.tmp`, marker);
      }
    };
    if (outcome === 'complete') {
      await say('done');
      return { stopReason: 'end_turn' };
    }
    await say('partial');
    if (outcome === 'child-error') return { stopReason: 'max_turn_requests' };
    if (outcome === 'max-tokens') return { stopReason: 'max_tokens' };
    if (outcome === 'refusal') return { stopReason: 'refusal' };
    return new Promise((resolve) => cancels.set(params.sessionId, () => resolve({ stopReason: 'cancelled' })));
  })
  .onNotification(methods.agent.session.cancel, ({ params }) => cancels.get(params.sessionId)?.());
const conn = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
void conn.closed.then(() => process.exit(0));
