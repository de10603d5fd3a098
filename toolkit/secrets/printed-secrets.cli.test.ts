import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuiltCli, runBuiltCli } from '../../test/support/built-cli.js';
import { makeScenarioProject, toolScenario } from '../../test/support/scenario-project.js';
import { removeTempDir } from '../../test/support/temp-dir.js';

const KEY = 'ghp-printed-0123456789abcdefXYZ';

/** Credential variables the `*_API_KEY/*_TOKEN/*_SECRET` convention alone missed, and one a project adds. */
const CREDENTIALS: Readonly<Record<string, string>> = {
  AWS_SECRET_ACCESS_KEY: 'aws-secret-0123456789abcdef',
  AZURE_OPENAI_KEY: 'azure-key-0123456789abcdef',
  OPENAI_KEY: 'openai-key-0123456789abcdef',
  GITHUB_PAT: 'github-pat-0123456789abcdef',
  DATABASE_PASSWORD: 'db-password-0123456789abcdef',
  SERVICE_CREDENTIALS: 'service-credentials-0123456789',
  CORP_DSN: 'postgres://u:corp-dsn-0123456789@db/x',
};

beforeAll(async () => {
  await ensureBuiltCli();
}, 180_000);

let project: string | undefined;
afterEach(async () => {
  if (project) await removeTempDir(project);
  project = undefined;
});

/**
 * An ACP agent that got hold of a key by itself (`CHILD_SAYS`, a name that is not key-like): it
 * writes the key to its stderr, then answers the prompt with a JSON-RPC error quoting it.
 */
const LEAKY_ACP_AGENT = `
import { createInterface } from 'node:readline';
const key = process.env.CHILD_SAYS;
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  if (request.id === undefined) continue;
  if (request.method === 'initialize') send({ id: request.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (request.method === 'session/new') send({ id: request.id, result: { sessionId: 's1' } });
  else if (request.method === 'session/prompt') {
    process.stderr.write('loaded key ' + key.slice(0, 9));
    process.stderr.write(key.slice(9) + ' from ~/.config\\n');
    send({ id: request.id, error: { code: -32000, message: 'upstream refused the key ' + key, data: { key } } });
  } else send({ id: request.id, error: { code: -32601, message: 'no' } });
}
`;

const ACP_SCENARIO = `import { fileURLToPath } from 'node:url';
export default {
  name: 'leaky-child',
  description: 'an ACP child that prints a key',
  providers: [{ kind: 'acp', command: 'node', args: [fileURLToPath(new URL('./leaky-agent.mjs', import.meta.url))] }],
  subagentTools: [{ provider: 'acp', toolName: 'subagent_acp', maxDepth: 'provider-managed', enableRunInBackground: false }],
  steps: [{ prompt: 'ask the child' }],
  script: { lineages: { main: [
    { toolCalls: [{ id: 'c1', name: 'subagent_acp', args: { description: 'ask', prompt: 'hi' } }] },
    { text: 'done' },
  ] } },
  expect: { sessions: 3 },
};
`;

describe('nothing nestcast prints carries a known secret', () => {
  test('a key an ACP child writes to stderr in two pieces and quotes in a JSON-RPC error is masked in the harness log lines, the failure messages and the JSON report', async () => {
    project = await makeScenarioProject({ 'leaky-child': ACP_SCENARIO });
    await writeFile(join(project, 'scenarios', 'leaky-agent.mjs'), LEAKY_ACP_AGENT);
    const env = { GITHUB_PAT: KEY, CHILD_SAYS: KEY };

    const run = await runBuiltCli(['run', 'leaky-child'], { cwd: project, env });
    const json = await runBuiltCli(['run', 'leaky-child', '--reporter', 'json'], { cwd: project, env });

    expect(run.code).toBe(1);
    expect(run.stdout).toContain('harness log:');
    expect(run.stdout).toContain('leaky-child');
    expect(run.stdout).toContain('loaded key [masked: the GITHUB_PAT environment variable] from ~/.config');
    expect(run.stdout).toContain('upstream refused the key [masked: the GITHUB_PAT environment variable]');
    expect(json.code).toBe(1);
    expect(json.stdout).toContain('[masked: the GITHUB_PAT environment variable]');
    for (const output of [run.stdout, run.stderr, json.stdout, json.stderr]) {
      expect(output).not.toContain(KEY);
      expect(output).not.toContain(KEY.slice(9));
    }
  });
});

describe('key-like variables cover the common credential names, and NESTCAST_SECRET_ENV adds more', () => {
  const names = Object.keys(CREDENTIALS);

  test('replay removes them all from the environment of scenario code and of its child processes', async () => {
    project = await makeScenarioProject({
      creds: toolScenario(
        'creds',
        `async () => {
          const { spawnSync } = await import('node:child_process');
          const names = ${JSON.stringify(names)};
          const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(JSON.stringify(' + JSON.stringify(names) + '.map((n) => process.env[n] ?? null)))']).stdout.toString();
          return JSON.stringify(names.map((n) => process.env[n] ?? null)) + ' ' + child;
        }`,
        `expect: { toolResults: { main: [${JSON.stringify(`${JSON.stringify(names.map(() => null))} ${JSON.stringify(names.map(() => null))}`)}] } },`,
      ),
    });
    // --update: the run checks its expectations though the scenario has no transcripts yet.
    const scrubbed = await runBuiltCli(['run', 'creds', '--update'], {
      cwd: project,
      env: { ...CREDENTIALS, NESTCAST_SECRET_ENV: 'CORP_*' },
    });
    const withoutTheList = await runBuiltCli(['run', 'creds', '--update'], { cwd: project, env: CREDENTIALS });

    expect(scrubbed.stdout).toContain('NOT_RECORDED');
    expect(scrubbed.stdout).not.toContain('EXPECTATION_FAILED');
    expect(withoutTheList.stdout).toContain('EXPECTATION_FAILED');
  });

  test('a record whose tool result carries one of them saves nothing, names the variable and prints no value', async () => {
    for (const [name, value] of Object.entries(CREDENTIALS)) {
      project = await makeScenarioProject({
        leak: toolScenario('leak', `async () => 'found ' + process.env.${name}`),
      });
      const result = await runBuiltCli(['record', 'leak'], {
        cwd: project,
        env: { [name]: value, NESTCAST_SECRET_ENV: 'CORP_DSN' },
      });
      expect(result.code, name).toBe(1);
      expect(result.stdout + result.stderr, name).toContain(`SECRET_IN_RECORDING`);
      expect(result.stdout + result.stderr, name).toContain(`the ${name} environment variable`);
      expect(result.stdout + result.stderr, name).not.toContain(value);
      expect(existsSync(join(project, 'recordings', 'leak')), name).toBe(false);
      await removeTempDir(project);
      project = undefined;
    }
  }, 120_000);

  test("what a child process started with stdio 'inherit' by scenario code prints reaches the terminal through its worker and is masked like nestcast's own output, in run and record", async () => {
    project = await makeScenarioProject({
      inherits: toolScenario(
        'inherits',
        `async () => {
          const { spawnSync } = await import('node:child_process');
          const say = "const end = String.fromCharCode(10); process.stdout.write('child out ' + process.env.CHILD_SAYS + end); process.stderr.write('child err ' + process.env.CHILD_SAYS + end);";
          spawnSync(process.execPath, ['-e', say], { stdio: 'inherit' });
          return 'done';
        }`,
      ),
    });
    const env = { GITHUB_PAT: KEY, CHILD_SAYS: KEY };
    const record = await runBuiltCli(['record', 'inherits'], { cwd: project, env });
    const run = await runBuiltCli(['run', 'inherits'], { cwd: project, env });
    for (const [command, result] of [
      ['record', record],
      ['run', run],
    ] as const) {
      expect(result.code, command).toBe(0);
      expect(result.stdout, command).toContain('child out [masked: the GITHUB_PAT environment variable]');
      expect(result.stderr, command).toContain('child err [masked: the GITHUB_PAT environment variable]');
      expect(result.stdout + result.stderr, command).not.toContain(KEY);
    }
  }, 120_000);

  test('a NESTCAST_SECRET_ENV entry that is not a variable name stops the command before it prints anything else', async () => {
    project = await makeScenarioProject({ creds: toolScenario('creds', `async () => 'x'`) });
    const result = await runBuiltCli(['run'], { cwd: project, env: { NESTCAST_SECRET_ENV: 'GOOD_NAME,bad-name' } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('SECRET_ENV_INVALID: NESTCAST_SECRET_ENV lists "bad-name"');
  });
});
