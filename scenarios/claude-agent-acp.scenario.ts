import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createMemoryLogger } from '../harness/runtime/logger.js';
import { Runtime } from '../harness/runtime.js';
import { acpProvider } from '../providers/acp/acp-provider.js';
import { subagentsService } from '../providers/seam/subagent-service.js';
import { NORMALISE_PRESETS } from '../toolkit/serve/normalise-presets.js';
import { defineScenario } from '../toolkit/scenarios/define-scenario.js';

/** `@zed-industries/claude-agent-acp` 0.23.1 (a devDependency): runs Claude Code 2.1.83 from its own Claude Agent SDK under Node. */
const AGENT = join(import.meta.dirname, '..', 'node_modules', '.bin', 'claude-agent-acp');

/**
 * A third-party ACP agent as a child of nestcast's own runtime: the ACP provider starts
 * claude-agent-acp for session `main`'s tool call `call_acp` and points its ANTHROPIC_BASE_URL at the
 * run's endpoint under the child's lineage, `main/call_acp`. Its model calls are recorded from the
 * script and replayed keyless; its Write tool writes RELEASE.md for real in every run.
 */
export default defineScenario({
  name: 'claude-agent-acp',
  description:
    'A third-party ACP child: claude-agent-acp, given its model endpoint by the ACP provider, writes RELEASE.md with its own Write tool.',
  program: async ({ endpoint, cwd }) => {
    const home = join(cwd, 'home');
    const work = join(cwd, 'work');
    await mkdir(home, { recursive: true });
    await mkdir(work, { recursive: true });
    const runtime = new Runtime({ sessionsRoot: join(cwd, 'sessions'), logger: createMemoryLogger() });
    try {
      await runtime.use(subagentsService);
      await runtime.use(acpProvider, {
        command: AGENT,
        // Its Write tool asks the client first; `allow` takes the first allow option.
        permission: 'allow',
        // Claude Code under Node takes a few seconds to start, more on a loaded machine.
        startupTimeoutMs: 60_000,
        modelEndpoint: {
          url: endpoint.baseUrl,
          baseUrlVariables: { ANTHROPIC_BASE_URL: '' },
          keyVariables: ['ANTHROPIC_API_KEY'],
        },
        env: {
          HOME: home,
          CLAUDE_CONFIG_DIR: join(home, '.claude'),
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_ERROR_REPORTING: '1',
          // Under Node 26, Claude Code 2.1.83 cannot reach any API while one of these is set (docs/acp.md).
          NODE_EXTRA_CA_CERTS: '',
          HTTPS_PROXY: '',
          HTTP_PROXY: '',
          https_proxy: '',
          http_proxy: '',
          // Claude Code refuses to skip permission prompts as root unless it is told it is sandboxed.
          IS_SANDBOX: '1',
        },
      });
      const session = await runtime.sessions.create({ lineage: 'main', cwd: work });
      const parent = runtime.agents.create({ session });
      const subagents = runtime.find('subagents');
      if (!subagents) throw new Error('the subagents service did not load');
      const run = await subagents.start('acp', {
        prompt: 'Write the release note.',
        parent,
        signal: new AbortController().signal,
        spawnedBy: 'call_acp',
      });
      const result = await run.result;
      await run.dispose();
      return { ...result, release: await readFile(join(work, 'RELEASE.md'), 'utf8') };
    } finally {
      await runtime.dispose();
    }
  },
  normalise: [
    ...(NORMALISE_PRESETS['claude-code'] ?? []),
    // Claude Code puts its working folder (the run's own temporary one) in its prompts, also with `/` as `-`.
    { replace: '[^\\s"\'`]*nestcast-claude-agent-acp-[A-Za-z0-9]{6}[/-]workspace', with: '<workspace>' },
  ],
  timeout: 180,
  script: {
    model: 'claude-sonnet-4-5',
    lineages: {
      'main/call_acp': [
        {
          toolCalls: [
            { id: 'toolu_note1', name: 'Write', args: { file_path: 'RELEASE.md', content: '1.0.0: first release\n' } },
          ],
        },
        { text: 'RELEASE.md written.' },
      ],
    },
  },
  expect: {
    sessions: 1,
    output: { 'main/call_acp': 'RELEASE.md written.' },
    // claude-agent-acp 0.23.1 ends each prompt with a `usage_update` whose `used` is null, which the
    // ACP schema refuses: the provider names it on the run's diagnostic, and this pins it.
    result: ({ output, stopReason, diagnostic, release }) =>
      output === 'RELEASE.md written.' &&
      stopReason === 'completed' &&
      release === '1.0.0: first release\n' &&
      /sent 1 session\/update notification\(s\) the ACP schema refuses, .*: usage_update \(update: Invalid input\): .*"used":null/.test(
        diagnostic ?? '',
      ),
  },
});
