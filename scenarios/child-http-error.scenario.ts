import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'child-http-error',
  description:
    'The child’s model call fails with HTTP 500: the child ends with an error, the parent sees an error result and recovers.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn' }],
  agent: { system: 'You are a coordinator.' },
  steps: [{ prompt: 'Ask a subagent for today’s date format in ISO 8601.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_iso',
              name: 'subagent',
              args: { description: 'ISO date format', prompt: 'What is the ISO 8601 date format?' },
            },
          ],
        },
        { text: 'The subagent failed, so from memory: ISO 8601 dates look like 2026-11-30.' },
      ],
      'main/call_iso': [
        { httpError: { status: 500, body: { error: { message: 'upstream overloaded', type: 'server_error' } } } },
      ],
    },
  },
  expect: {
    sessions: 2,
    turnEnd: { main: 'completed', 'main/call_iso': 'error' },
    toolResults: { main: [/^Error: subagent run failed/] },
    output: { main: '2026-11-30' },
  },
} satisfies ScenarioDefinition;
