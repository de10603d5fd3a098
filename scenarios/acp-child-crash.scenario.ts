import { fileURLToPath } from 'node:url';
import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'acp-child-crash',
  description:
    'An out-of-process child crashes mid-answer: the run ends with an error that keeps the partial output and names the exit code, and the parent recovers.',
  providers: [
    {
      kind: 'acp',
      command: 'node',
      args: [fileURLToPath(new URL('./fixtures/crashing-acp-agent.mjs', import.meta.url))],
    },
  ],
  subagentTools: [
    { provider: 'acp', toolName: 'subagent_acp', maxDepth: 'provider-managed', enableRunInBackground: false },
  ],
  agent: { system: 'You are a coordinator.' },
  steps: [{ prompt: 'Ask an isolated agent for the first five primes.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_primes',
              name: 'subagent_acp',
              args: { description: 'First five primes', prompt: 'List the first five primes.' },
            },
          ],
        },
        { text: 'The agent crashed after "2, 3"; the first five primes are 2, 3, 5, 7 and 11.' },
      ],
    },
  },
  expect: {
    sessions: 1,
    turnEnd: { main: 'completed' },
    toolResults: { main: [/exited with code 3/, /The first three primes are 2, 3/] },
  },
} satisfies ScenarioDefinition;
