import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NORMALISE_PRESETS } from '../toolkit/serve/normalise-presets.js';
import { defineScenario } from '../toolkit/scenarios/define-scenario.js';

/** The Claude Code binary `@anthropic-ai/claude-agent-sdk` installs for Linux x64 (Claude Code 2.1.333). */
const CLAUDE = join(import.meta.dirname, '..', 'node_modules', '@anthropic-ai', 'claude-agent-sdk-linux-x64', 'claude');

/**
 * A program scenario whose agent is another process: Claude Code (`claude -p`), pointed at the
 * run's endpoint by the environment nestcast hands over. Its main session delegates to a sub-agent
 * (the Agent tool) that writes a file; both sessions are derived from content and replayed keyless.
 */
export default defineScenario({
  name: 'claude-code-child',
  description:
    'Your own agent is a process: Claude Code delegates writing notes.txt to a sub-agent, its model calls served by the run’s endpoint.',
  program: async ({ endpoint, cwd, signal }) => {
    const work = join(cwd, 'work');
    const home = join(cwd, 'home');
    await mkdir(work, { recursive: true });
    await mkdir(home, { recursive: true });
    const child = spawn(
      CLAUDE,
      ['-p', 'Delegate writing notes.txt to a sub-agent.', '--output-format', 'json', '--dangerously-skip-permissions'],
      {
        cwd: work,
        signal,
        // No stdin: with a pipe, `claude -p` waits 3 s for piped input first.
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env['PATH'],
          HOME: home,
          CLAUDE_CONFIG_DIR: join(home, '.claude'),
          ...endpoint.env,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_ERROR_REPORTING: '1',
          // Claude Code refuses --dangerously-skip-permissions as root unless told it runs in a sandbox.
          IS_SANDBOX: '1',
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (code !== 0) throw new Error(`claude exited ${code}: ${stdout}${stderr}`);
    const { result } = JSON.parse(stdout) as { result: string };
    return { result, notes: await readFile(join(work, 'notes.txt'), 'utf8') };
  },
  // Claude Code's working folder and HOME are under the run's folder, which every request names `<cwd>`.
  normalise: NORMALISE_PRESETS['claude-code'] ?? [],
  timeout: 180,
  script: {
    model: 'claude-sonnet-4-5',
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'toolu_task1',
              name: 'Agent',
              args: {
                description: 'Write the notes',
                prompt: 'Create notes.txt containing: hello from the sub-agent',
                subagent_type: 'general-purpose',
                run_in_background: false,
              },
            },
          ],
        },
        { text: 'The sub-agent wrote notes.txt.' },
      ],
      'main/toolu_task1': [
        {
          toolCalls: [
            {
              id: 'toolu_write1',
              name: 'Write',
              args: { file_path: 'notes.txt', content: 'hello from the sub-agent\n' },
            },
          ],
        },
        { text: 'Done: notes.txt written.' },
      ],
    },
  },
  expect: {
    sessions: 2,
    output: { main: 'The sub-agent wrote notes.txt.', 'main/toolu_task1': 'notes.txt written' },
    result: ({ result, notes }) =>
      result === 'The sub-agent wrote notes.txt.' && notes === 'hello from the sub-agent\n',
  },
});
